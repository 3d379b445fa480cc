import { expect, test } from '@playwright/test';
import type { AnyStateMachine } from 'xstate';
import { FLOW_REGISTRY } from '../../machines/flows';
import { shortestPaths, type FlowPath } from '../paths/support';
import { pageReady, seedSession } from './support';
import { testApplicant } from './fixtures';
import type { PersonMapping } from './flows/person';
import { loginOtpPerson, oneTimeCodePerson, prepareFor } from './flows/login-otp.person';
import { applyPerson } from './flows/apply.person';

/**
 * Browser paths (issue 6): for every flow with screens, the shortest path to each screen state is
 * replayed in Chromium through one mapping from events to what a person does and from states to what
 * they see.
 */
const MAPPINGS: PersonMapping[] = [loginOtpPerson, oneTimeCodePerson, applyPerson];

interface NodeLike {
  id: string;
  meta?: unknown;
  states: Record<string, NodeLike>;
}

/**
 * The states that are screens, at any depth: they carry `meta.route`, or `meta.screen` in a child machine
 * that shows its screens inside its parent's page. Their ids, e.g. `apply.wizard.fill`.
 */
function screenStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const walk = (node: NodeLike) => {
    const meta = node.meta as { route?: unknown; screen?: unknown } | undefined;
    if (typeof meta?.route === 'string' || typeof meta?.screen === 'string') out.push(node.id);
    for (const child of Object.values(node.states)) walk(child);
  };
  walk(machine.root);
  return out;
}

/** Whether a path ends in a screen state (the screen is among the active states with meta). */
const endsIn = (path: FlowPath, screenId: string): boolean => screenId in path.state.getMeta();

/** Each replayed path logs in to an applicant of its own (the code limits are per application). */
const FIRST_APPLICANT = 30;

for (const mapping of MAPPINGS) {
  const entry = FLOW_REGISTRY.find((e) => e.id === mapping.flowId);
  test.describe(`browser paths of ${mapping.flowId}`, () => {
    test('every screen state is replayed or listed with the reason it is not', () => {
      expect(entry).toBeDefined();
      const screens = entry ? screenStates(entry.machine) : [];
      expect(screens.length).toBeGreaterThan(0);
      for (const s of screens)
        expect(Object.keys(mapping.sees).includes(s) || s in mapping.notReplayed, s).toBe(true);
    });

    if (!entry) return;
    const paths = shortestPaths(entry);
    for (const [i, screen] of screenStates(entry.machine)
      .filter((s) => s in mapping.sees)
      .entries()) {
      const candidates = paths
        .filter((p) => endsIn(p, screen) && p.steps.every((st) => mapping.action(st.event) !== null))
        .sort((a, b) => a.steps.length - b.steps.length);
      const path = candidates[0];
      test(`reaches ${screen} as a person would`, async ({ page }) => {
        expect(path, `no replayable path to ${screen}`).toBeDefined();
        if (!path) return;
        const applicant = testApplicant((mapping.firstApplicant ?? FIRST_APPLICANT) + i);
        const ctx = { page, applicant };
        await seedSession(page, { language: 'en' });
        await prepareFor[screen]?.(page);
        const actions = path.steps.map((st) => mapping.action(st.event));
        for (const a of actions) await a?.prepare?.(ctx);
        await page.goto(mapping.start);
        await pageReady(page);
        for (const a of actions) await a?.act(ctx);
        const route = mapping.route?.(screen) ?? mapping.start;
        await expect(page).toHaveURL((url) => url.pathname === route);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await mapping.sees[screen]?.(ctx);
      });
    }
  });
}
