import { describe, expect, it } from 'vitest';
import { and, fromPromise, not, setup } from 'xstate';
import { FLOW_REGISTRY } from '../../machines/flows';
import {
  DIAGRAM_END,
  DIAGRAM_START,
  docUpdates,
  flowDiagram,
  withDiagram,
} from '../../scripts/flows/diagram';

describe('flow diagrams (npm run docs:flows)', () => {
  it.each(docUpdates(FLOW_REGISTRY).map((u) => [u.file, u] as const))(
    '%s holds the current diagram of its machine',
    (file, update) => {
      expect(update.current, `${file} is missing: run npm run docs:flows`).toBeDefined();
      expect(update.current === update.next, `${file} is stale: run npm run docs:flows`).toBe(true);
    },
  );

  it('draws nesting, initial and final states, labels, delays, actor outcomes and routes', () => {
    const machine = setup({
      actors: { save: fromPromise(async () => {}) },
      guards: { ready: () => true, online: () => true },
      delays: { tick: 1500 },
    }).createMachine({
      id: 'demo',
      initial: 'edit',
      on: { reset: '.edit' },
      states: {
        edit: {
          meta: { route: '/edit' },
          on: { save: [{ guard: and(['ready', not('online')]), target: 'saving' }, { target: 'edit' }] },
        },
        saving: {
          invoke: { id: 'save', src: 'save', onDone: 'both', onError: 'edit' },
          after: { 5000: 'edit', tick: { target: 'saving', reenter: true } },
        },
        both: {
          type: 'parallel',
          states: {
            a: {
              meta: { route: '/a' },
              initial: 'idle',
              states: { idle: { always: { guard: 'ready', target: 'idle' } } },
            },
            b: { initial: 'idle', states: { idle: { on: { go: '#demo.done' } } } },
          },
        },
        done: { type: 'final' },
      },
    });
    const lines = flowDiagram(machine).split('\n');
    expect(lines[0]).toBe('stateDiagram-v2');
    for (const line of [
      '  [*] --> demo',
      '  demo --> edit: reset',
      '    edit --> saving: save [ready && !online]',
      '    edit --> edit: save [else]',
      '    saving --> both: done: save',
      '    saving --> edit: error: save',
      '    saving --> edit: after 5 s',
      '    saving --> saving: after tick (1500 ms)',
      '        state "idle" as both_a_idle',
      '        both_a_idle --> both_a_idle: always [ready]',
      '      --',
      // Between states of different parents: at the top level, or Mermaid would move them.
      '  both_b_idle --> done: go',
      '    done --> [*]',
      '    note right of edit : /edit',
      // Mermaid allows no note between regions: a region's goes at the top level.
      '  note right of a : /a',
    ])
      expect(lines).toContain(line);
    expect(flowDiagram(machine)).toBe(flowDiagram(machine));
  });

  it('replaces only the text between the markers, and creates a page that does not exist', () => {
    const page = `# Title\n\nProse.\n\n${DIAGRAM_START}\nold\n${DIAGRAM_END}\n\nMore prose.\n`;
    const next = withDiagram(page, 'x', 'stateDiagram-v2');
    expect(next).toBe(
      `# Title\n\nProse.\n\n${DIAGRAM_START}\n\n\`\`\`mermaid\nstateDiagram-v2\n\`\`\`\n\n${DIAGRAM_END}\n\nMore prose.\n`,
    );
    expect(withDiagram(next, 'x', 'stateDiagram-v2')).toBe(next);
    expect(withDiagram(undefined, 'checkout', 'stateDiagram-v2')).toMatch(
      /^# checkout\n\n## Diagram\n\n<!--/,
    );
    expect(() => withDiagram(`${DIAGRAM_END}\n${DIAGRAM_START}`, 'x', '')).toThrow(/expected one/);
  });
});
