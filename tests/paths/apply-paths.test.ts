import type { SerializedEvent, SerializedSnapshot } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { FormDefinition } from '../../machines/forms/types';
import { type FlowEntry, type FlowTransition, transitionKey } from '../../machines/flows';
import { applyMachine } from '../../machines/flows/apply.machine';
import { applyTraversal } from '../../machines/flows/apply/graph';
import { findRoute } from '../../machines/routes';
import { describePath, measure, type PathRun, ratio } from './coverage';
import { APPLICATION_FORM, SELF_CERTIFICATION_FORM } from './fixtures/apply-forms';
import { FORM_CATALOGUE, formByKey } from '../../machines/forms';
import { requiredAnswersValidator } from '../../machines/flows/apply/steps';
import type { ValidateStep } from '../../machines/flows/apply/types';
import { adjacencyOf, type FlowPath, replay, shortestPaths } from './support';
import type { ApplyContext } from '../../machines/flows/apply/types';
import { screenOf } from '../../machines/flows/apply/steps';

/**
 * Path tests of the application wizard for both shapes of form: the shortest path to every state of the
 * graph and one path per transition of the machine, generated with @xstate/graph and replayed on the real
 * machine with never-settling actors (each outcome arrives as the path's own done/error event).
 */

/**
 * For the real self-certification forms: a step is valid when its first required field is answered. The
 * graph tells states apart by the validity of each step, not by the answers, so a step of ten required
 * fields would need the ten answers in one node; the fields' own rules are the schema's unit tests
 * (tests/unit/forms/self-certification.test.ts), the steps, their routes and their order are tested here.
 */
function firstRequiredValidator(definition: FormDefinition): ValidateStep {
  const all = requiredAnswersValidator(definition);
  return (stepIndex, answers) => {
    const step = definition.steps[stepIndex];
    if (step?.kind !== 'fill') return { ok: true, errors: {} };
    const first = step.sections.flatMap((s) => s.fields).find((f) => f.required);
    const { errors } = all(stepIndex, answers);
    const error = first ? errors[first.id] : undefined;
    return first && error ? { ok: false, errors: { [first.id]: error } } : { ok: true, errors: {} };
  };
}

/**
 * A real form as the graph walks it: its steps and routes as they are, its first required field per step
 * (above) and its first required document (the graph tells "all documents there" from "not", so two
 * required documents would need both in one node too; the upload rules are the API's tests).
 */
function asWalked(definition: FormDefinition): { definition: FormDefinition; validate?: ValidateStep } {
  if (formByKey(definition.key) !== definition) return { definition };
  const firstDoc = definition.documents.find((d) => d.required);
  return {
    definition: { ...definition, documents: firstDoc ? [firstDoc] : [] },
    validate: firstRequiredValidator(definition),
  };
}

const entryFor = (form: FormDefinition): FlowEntry => ({
  id: `apply ${form.code}`,
  machine: applyMachine,
  doc: 'apply.md',
  ...(({ definition, validate }) => applyTraversal(definition, validate))(asWalked(form)),
  simplePaths: { skip: 'covered by the shortest and per-transition paths' },
  traversalLimit: 50_000,
});

interface Edge {
  from: AnyMachineSnapshot;
  path: FlowPath;
}

/** Every edge of the graph as a path (the shortest path to its source, then the edge), shortest first. */
function edgesOf(entry: FlowEntry, shortest: FlowPath[]): Edge[] {
  const heads = new Map(shortest.map((p) => [entry.serializeState(p.state), p]));
  const adjacency = adjacencyOf(entry);
  return (Object.keys(adjacency) as SerializedSnapshot[])
    .flatMap((key) => {
      const node = adjacency[key];
      const head = heads.get(key);
      if (!node || !head) return [];
      return Object.values(node.transitions as Record<SerializedEvent, { event: never; state: never }>).map(
        ({ event, state }): Edge => ({
          from: node.state,
          path: { state, steps: [...head.steps, { event, state }], weight: head.weight + 1 },
        }),
      );
    })
    .sort((a, b) => a.path.weight - b.path.weight);
}

/**
 * One path per transition of the machine: for each transition the shortest edge path whose event selects it
 * (`getTransitionData`); the transitions only the machine's own follow-ups take (raised autosave events,
 * eventless ones) get the shortest edge path whose replay takes them.
 */
function transitionPaths(entry: FlowEntry, edges: Edge[], alreadySeen: Set<string>): PathRun[] {
  const chosen = new Map<string, FlowPath>();
  for (const { from, path } of edges) {
    const event = path.steps.at(-1)?.event;
    if (!event) continue;
    for (const t of from.machine.getTransitionData(from, event)) {
      const key = transitionKey(t as FlowTransition);
      if (!chosen.has(key)) chosen.set(key, path);
    }
  }
  const runs = [...new Set(chosen.values())].map((path) => ({
    kind: 'edge' as const,
    path,
    result: replay(entry, path),
  }));
  const seen = new Set([...alreadySeen, ...runs.flatMap((r) => [...r.result.transitions])]);
  const all = measure(entry, []).transitions.missing;
  let missing = all.filter((k) => !seen.has(k));
  for (const { path } of edges) {
    if (missing.length === 0) break;
    const result = replay(entry, path);
    if (missing.some((k) => result.transitions.has(k))) {
      runs.push({ kind: 'edge', path, result });
      missing = missing.filter((k) => !result.transitions.has(k));
    }
  }
  return runs;
}

/** The kinds of routes.ts step a screen may show on. */
const ROUTE_KINDS: Record<string, readonly string[]> = {
  fill: ['fill', 'fillPartA', 'fillPartB', 'letterOfRequirements'],
  saved: ['fill', 'fillPartA', 'fillPartB', 'letterOfRequirements'],
  preview: ['preview'],
  upload: ['upload'],
  success: ['success'],
};

describe.each([
  ['a four-step application form', APPLICATION_FORM, 4],
  ['a six-step self-certification form', SELF_CERTIFICATION_FORM, 6],
  // The real self-certification forms (issue 16): SCS-1 (Part A, Part B, Letter of Requirements, preview,
  // upload, success) and SCC-2, the five-step one without a letter.
  ['the self-certification SCS-1', FORM_CATALOGUE.scs1, 6],
  ['the self-certification SCC-2', FORM_CATALOGUE.scc2, 5],
] as const)('the application wizard over %s', (_name, definition, steps) => {
  const entry = entryFor(definition);
  let memo: { shortest: PathRun[]; perTransition: PathRun[] } | undefined;
  const runs = () => {
    if (!memo) {
      const paths = shortestPaths(entry);
      const shortest = paths.map((path) => ({
        kind: 'shortest' as const,
        path,
        result: replay(entry, path),
      }));
      const seen = new Set(shortest.flatMap((r) => [...r.result.transitions]));
      memo = { shortest, perTransition: transitionPaths(entry, edgesOf(entry, paths), seen) };
    }
    return memo;
  };

  it('has the steps of its kind of form', () => {
    expect(definition.steps).toHaveLength(steps);
  });

  it('reaches every state of the graph by its shortest path on the real machine', { timeout: 60_000 }, () => {
    const { shortest } = runs();
    expect(shortest.length).toBeGreaterThan(20);
    expect(measure(entry, shortest).mismatches).toEqual([]);
  });

  it('takes every transition of the machine along one path each on the real machine', () => {
    const { perTransition } = runs();
    expect(measure(entry, perTransition).mismatches).toEqual([]);
  });

  it('covers 100 % of the states and transitions, less the ones listed as unreachable with a reason', () => {
    const { shortest, perTransition } = runs();
    const result = measure(entry, [...shortest, ...perTransition]);
    console.log(
      `${entry.id}: states ${ratio(result.states)}, transitions ${ratio(result.transitions)}, ` +
        `paths ${shortest.length} shortest, ${perTransition.length} per transition`,
    );
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
    expect(result.unreachableProblems).toEqual([]);
  });

  it('names a route of the route table of the same kind for every screen it reaches', () => {
    for (const { path } of runs().shortest) {
      const screen = screenOf(path.state as AnyMachineSnapshot & { context: ApplyContext });
      if (!screen) continue;
      const route = findRoute(screen.route);
      expect(route?.flow?.kind, `${describePath(path)} -> ${screen.route}`).toBeDefined();
      expect(ROUTE_KINDS[screen.screen], describePath(path)).toContain(route?.flow?.kind);
      expect(route?.flow?.step).toBe(screen.step);
      expect(route?.flow?.total).toBe(steps);
    }
  });
});
