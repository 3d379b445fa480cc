import { useSyncExternalStore } from 'react';

/** A tiny observable value for app-wide feedback (loading count, toasts). */
function observable<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next: T) => {
      value = next;
      for (const l of listeners) l();
    },
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
  };
}

export const loadingCount = observable(0);

export function changeLoading(delta: 1 | -1): void {
  loadingCount.set(Math.max(0, loadingCount.get() + delta));
}

export function useLoadingCount(): number {
  return useSyncExternalStore(loadingCount.subscribe, loadingCount.get, () => 0);
}

export interface Toast {
  id: number;
  kind: 'error' | 'success' | 'info';
  message: string;
}

/** Message toast default duration (spec §9). */
export const TOAST_DURATION_MS = 3000;
/** The error toast of a stored status entry appears after this delay (spec §4, §9). */
export const ERROR_TOAST_DELAY_MS = 2000;

export const toasts = observable<Toast[]>([]);
let nextId = 1;

export function showToast(kind: Toast['kind'], message: string, duration = TOAST_DURATION_MS): void {
  // The same message twice at once (two failing requests) shows once.
  if (toasts.get().some((t) => t.message === message && t.kind === kind)) return;
  const toast = { id: nextId++, kind, message };
  toasts.set([...toasts.get(), toast]);
  setTimeout(() => dismissToast(toast.id), duration);
}

export function dismissToast(id: number): void {
  toasts.set(toasts.get().filter((t) => t.id !== id));
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(toasts.subscribe, toasts.get, () => []);
}
