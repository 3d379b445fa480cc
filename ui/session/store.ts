import { useSyncExternalStore } from 'react';
import {
  DEFAULT_SESSION_STATE,
  parseSessionState,
  serializeSessionState,
  SESSION_STORAGE_KEY,
  type SessionState,
} from '../../machines/rules/session-state';

type Listener = () => void;

function readStorage(): string | null {
  try {
    return window.localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode, policy): run with defaults
  }
}

let state: SessionState =
  typeof window === 'undefined' ? DEFAULT_SESSION_STATE : parseSessionState(readStorage());
const listeners = new Set<Listener>();

function persist(): void {
  try {
    window.localStorage.setItem(SESSION_STORAGE_KEY, serializeSessionState(state));
  } catch {
    // Quota or disabled storage: the session still works for this page view.
  }
}

export function getSession(): SessionState {
  return state;
}

/** Update the session with a function of the current state; persists and notifies. */
export function updateSession(change: (s: SessionState) => SessionState): void {
  const next = change(state);
  if (next === state) return;
  state = next;
  persist();
  for (const l of listeners) l();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab changed the stored session (language, theme, logout): follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== SESSION_STORAGE_KEY) return;
    state = parseSessionState(e.newValue);
    for (const l of listeners) l();
  });
}

export function useSession<T>(select: (s: SessionState) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(state),
    () => select(DEFAULT_SESSION_STATE),
  );
}
