import type { InspectionEvent, Observer } from 'xstate';

/**
 * The Stately inspector for developers: in development (`npm run dev`), open any page with `?inspect`
 * and every flow actor, child actors included, shows in the inspector window. The import is behind
 * `import.meta.env.DEV`, so a production build holds none of it (tests/e2e/inspector.spec.ts checks).
 */
let inspect: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined;

export async function startInspectorIfAsked(): Promise<void> {
  if (!import.meta.env.DEV) return;
  if (!new URLSearchParams(window.location.search).has('inspect')) return;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  inspect = createBrowserInspector().inspect;
}

/** Options for `useMachine` / `createActor`: the inspector when it runs, nothing otherwise. */
export function inspectOptions(): { inspect?: typeof inspect } {
  return inspect ? { inspect } : {};
}
