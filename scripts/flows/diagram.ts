import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { type FlowEntry, type FlowStateNode, type FlowTransition, transitionsOf } from '../../machines/flows';

/**
 * A Mermaid `stateDiagram-v2` drawn from a machine's own structure (`machine.root`): states and nested
 * compound and parallel states, initial and final states, every candidate transition labelled
 * `event [guard]` (`after <delay>`, `always [guard]`, `done: <actor>`, `error: <actor>`), and each state's
 * `meta.route` as a note. The order is the machine's own, so the output is stable. Used by
 * `npm run docs:flows` (scripts/flow-diagrams.ts) and the check in tests/paths/diagrams.test.ts.
 */

export const DIAGRAM_START = '<!-- diagram:start -->';
export const DIAGRAM_END = '<!-- diagram:end -->';
export const DOCS_DIR = fileURLToPath(new URL('../../docs/flows/', import.meta.url));

const INDENT = '  ';
const RESERVED = new Set([
  'state',
  'note',
  'end',
  'direction',
  'class',
  'classDef',
  'style',
  'as',
  'left',
  'right',
]);

const childrenOf = (node: FlowStateNode): FlowStateNode[] => Object.values(node.states);

/** Mermaid ids: the state's key where it is unique in the machine, else its path joined by `_`. */
function mermaidIds(root: FlowStateNode): Map<FlowStateNode, string> {
  const all: FlowStateNode[] = [];
  const walk = (node: FlowStateNode) => childrenOf(node).forEach((child) => (all.push(child), walk(child)));
  walk(root);
  const keyCount = new Map<string, number>();
  for (const node of all) keyCount.set(node.key, (keyCount.get(node.key) ?? 0) + 1);
  const ids = new Map<FlowStateNode, string>();
  const used = new Set<string>();
  for (const node of [root, ...all]) {
    const name = node === root ? root.key : keyCount.get(node.key) === 1 ? node.key : node.path.join('_');
    let id = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (RESERVED.has(id) || /^[0-9]/.test(id)) id = `s_${id}`;
    while (used.has(id)) id = `${id}_`;
    used.add(id);
    ids.set(node, id);
  }
  return ids;
}

/** Guards by name; `and`, `or` and `not` spelled out; an inline function by its name. */
function guardLabel(guard: unknown, nested = false): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const fn = guard as { name?: string; guards?: unknown[] };
    const parts = (fn.guards ?? []).map((g) => guardLabel(g, true));
    const join = (op: string) => (nested ? `(${parts.join(op)})` : parts.join(op));
    if (fn.name === 'and') return join(' && ');
    if (fn.name === 'or') return join(' || ');
    if (fn.name === 'not') return `!${parts[0] ?? ''}`;
    return fn.name || 'guard';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  return 'guard';
}

const duration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

function delayLabel(machine: AnyStateMachine, delay: unknown): string {
  if (typeof delay === 'number') return duration(delay);
  if (typeof delay !== 'string') return 'delay';
  const implementation = (machine.implementations.delays as Record<string, unknown>)[delay];
  return typeof implementation === 'number' ? `${delay} (${duration(implementation)})` : delay;
}

function eventLabel(machine: AnyStateMachine, t: FlowTransition): string {
  const type = String(t.eventType);
  if (type === '') return 'always';
  if ('delay' in t) return `after ${delayLabel(machine, t.delay)}`;
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
  if (actor) return `${actor[1]}: ${actor[2]}`;
  if (type.startsWith('xstate.done.state.')) return 'done';
  return type;
}

/** `event [guard]`; a fallback without a guard after guarded candidates of the same event reads `[else]`. */
function transitionLabel(machine: AnyStateMachine, t: FlowTransition): string {
  const candidates =
    t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
  const elseBranch = !t.guard && candidates.slice(0, candidates.indexOf(t)).some((c) => c.guard);
  const guard = t.guard ? ` [${guardLabel(t.guard)}]` : elseBranch ? ' [else]' : '';
  // `#` and `;` end a Mermaid label.
  return `${eventLabel(machine, t)}${guard}`.replace(/[#;]/g, ' ');
}

/**
 * The block an edge is written in: the parent of both ends when they are siblings in a compound state, else
 * the top level (`undefined`). Mermaid moves a state named inside a block into that block, so an edge inside
 * a block may only name that block's own children.
 */
function blockOf(source: FlowStateNode, target: FlowStateNode): FlowStateNode | undefined {
  const parent = source.parent;
  return parent && parent === target.parent && parent.type !== 'parallel' ? parent : undefined;
}

/** The diagram of a machine, without the code fence. */
export function flowDiagram(machine: AnyStateMachine): string {
  const root = machine.root as FlowStateNode;
  const ids = mermaidIds(root);
  const id = (node: FlowStateNode) => ids.get(node) ?? node.id;
  // Per block, the edges by `source --> target`. Mermaid draws only one self-loop per state, so a state's
  // self-transitions share one arrow, a label per line; other parallel edges keep one arrow each.
  const edges = new Map<FlowStateNode | undefined, Map<string, string[]>>();
  transitionsOf(machine).forEach((t, index) => {
    const source = t.source as FlowStateNode;
    for (const target of (t.target ?? [source]) as readonly FlowStateNode[]) {
      const block = blockOf(source, target);
      const arrow = `${id(source)} --> ${id(target)}`;
      const byArrow = edges.get(block) ?? new Map<string, string[]>();
      const key = target === source ? arrow : `${arrow}#${index}`;
      byArrow.set(key, [...(byArrow.get(key) ?? []), transitionLabel(machine, t)]);
      edges.set(block, byArrow);
    }
  });
  const edgeLines = (block: FlowStateNode | undefined, pad: string) =>
    [...(edges.get(block) ?? new Map<string, string[]>())].map(
      ([key, labels]) => `${pad}${key.replace(/#\d+$/, '')}: ${labels.join('<br>')}`,
    );

  // A machine whose root has transitions, or is parallel (Mermaid has no regions at the top level), is drawn
  // as one composite state.
  const wrapRoot =
    root.type === 'parallel' ||
    transitionsOf(machine).some((t) => t.source === root || t.target?.includes(root));

  const noteLines = (node: FlowStateNode, pad: string): string[] => {
    const route = (node.meta as { route?: unknown } | undefined)?.route;
    return typeof route === 'string'
      ? [`${pad}note right of ${id(node)} : ${route.replace(/[#;]/g, ' ')}`]
      : [];
  };
  // Mermaid allows no note between the regions of a parallel state: theirs go at the top level.
  const regionNotes = (pad: string) =>
    [...ids.keys()]
      .filter((node) => node.parent?.type === 'parallel')
      .flatMap((node) => noteLines(node, pad));

  const declare = (node: FlowStateNode, depth: number): string[] => {
    const pad = INDENT.repeat(depth);
    const alias =
      id(node) === node.key ? [] : [`${pad}state "${node.key.replace(/"/g, "'")}" as ${id(node)}`];
    if (childrenOf(node).length === 0) return alias.length > 0 ? alias : [`${pad}${id(node)}`];
    return [...alias, `${pad}state ${id(node)} {`, ...body(node, depth + 1), `${pad}}`];
  };

  const body = (node: FlowStateNode, depth: number): string[] => {
    const pad = INDENT.repeat(depth);
    const children = childrenOf(node);
    if (node.type === 'parallel')
      return children.flatMap((region, i) => [...(i > 0 ? [`${pad}--`] : []), ...declare(region, depth)]);
    return [
      ...(node.initial?.target ?? []).map((target) => `${pad}[*] --> ${id(target as FlowStateNode)}`),
      ...children.flatMap((child) => declare(child, depth)),
      ...children.filter((child) => child.type === 'final').map((child) => `${pad}${id(child)} --> [*]`),
      ...edgeLines(node, pad),
      // Edges between states of different parents go at the top level, the root's block unless it is drawn.
      ...(node === root && !wrapRoot ? edgeLines(undefined, pad) : []),
      ...children.flatMap((child) => noteLines(child, pad)),
      ...(node === root && !wrapRoot ? regionNotes(pad) : []),
    ];
  };

  const lines = wrapRoot
    ? [
        `${INDENT}[*] --> ${id(root)}`,
        ...declare(root, 1),
        ...edgeLines(undefined, INDENT),
        ...regionNotes(INDENT),
      ]
    : body(root, 1);
  return [
    'stateDiagram-v2',
    `${INDENT}%% Generated from the machine by npm run docs:flows: do not edit by hand.`,
    ...lines,
  ].join('\n');
}

/**
 * The page with the diagram between the markers and everything around them kept; a page without markers gets
 * a Diagram section at the end, a missing page (`undefined`) a heading and the section.
 */
export function withDiagram(markdown: string | undefined, title: string, diagram: string): string {
  const section = `${DIAGRAM_START}\n\n\`\`\`mermaid\n${diagram}\n\`\`\`\n\n${DIAGRAM_END}`;
  if (markdown === undefined) return `# ${title}\n\n## Diagram\n\n${section}\n`;
  const start = markdown.indexOf(DIAGRAM_START);
  const end = markdown.indexOf(DIAGRAM_END);
  if (start === -1 && end === -1) return `${markdown.trimEnd()}\n\n## Diagram\n\n${section}\n`;
  const once = (marker: string, at: number) => at !== -1 && markdown.indexOf(marker, at + 1) === -1;
  if (!once(DIAGRAM_START, start) || !once(DIAGRAM_END, end) || end < start)
    throw new Error(`expected one ${DIAGRAM_START} followed by one ${DIAGRAM_END}`);
  return markdown.slice(0, start) + section + markdown.slice(end + DIAGRAM_END.length);
}

/** The page with `content` between `<!-- name:start -->` and `<!-- name:end -->` (added at the end if absent). */
export function withSection(markdown: string, name: string, content: string): string {
  const [open, close] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const section = `${open}\n\n${content}\n\n${close}`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start === -1 || end < start) return `${markdown.trimEnd()}\n\n${section}\n`;
  return markdown.slice(0, start) + section + markdown.slice(end + close.length);
}

export interface DocUpdate {
  /** Relative to the repository root, e.g. `docs/flows/login.md`. */
  file: string;
  path: string;
  current: string | undefined;
  next: string;
}

/** For each registry entry, its page as it is and as it should be. */
export function docUpdates(registry: readonly FlowEntry[]): DocUpdate[] {
  const seen = new Map<string, string>();
  return registry.map((entry) => {
    if (!/^[\w.-]+\.md$/.test(entry.doc))
      throw new Error(`${entry.id}: doc must be a file name in docs/flows/`);
    const other = seen.get(entry.doc);
    if (other) throw new Error(`${entry.id} and ${other} both name docs/flows/${entry.doc}`);
    seen.set(entry.doc, entry.id);
    const path = DOCS_DIR + entry.doc;
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    let next = withDiagram(current, entry.id, flowDiagram(entry.machine));
    for (const [name, make] of Object.entries(entry.sections ?? {})) next = withSection(next, name, make());
    return { file: `docs/flows/${entry.doc}`, path, current, next };
  });
}
