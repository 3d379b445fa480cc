import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_ACTIONS as ACTIONS,
  PERMISSIONS,
  ROLES,
  type CaseAction as Action,
} from '../../machines/rules/authorisation';
import { type CaseHarness, startCaseHarness } from './cases-harness';

let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

/** A live session of `role` on a case of its own, made as the login would (only the hash is kept). */
async function sessionAs(role: string): Promise<string> {
  const app = await h.addApplication({ status: 'LOR_ISSUED' });
  return h.sessionOn(app.id, role);
}

/** One request per action, answering the status it gets. */
const REQUESTS: Record<Action, (token: string) => Promise<number>> = {
  'case.view': async (token) => (await h.current(token)).status,
  'case.act': async (token) => (await h.act(token, 'requestForInspection', h.inspectionAnswers())).status,
  // No document on these cases: an allowed role gets 404, a refused one 403 before the lookup.
  'case.document': async (token) => (await h.download('/api/cases/current/documents/1', token)).status,
  // Not submitted online: an allowed role gets 404, a refused one 403 before the lookup.
  'case.information': async (token) => (await h.call('GET', '/api/application/submission', { token })).status,
  'appointment.manage': async (token) =>
    (await h.call('GET', '/api/cases/current/appointments', { token })).status,
  'appointee.cases': async (token) => (await h.call('GET', '/api/appointee/cases', { token })).status,
};
const ALLOWED: Record<Action, number> = {
  'case.view': 200,
  'case.act': 200,
  'case.document': 404,
  'case.information': 404,
  'appointment.manage': 200,
  'appointee.cases': 200,
};

describe('who may do what on a case (machines/rules/authorisation.ts)', () => {
  const table = ROLES.flatMap((role) => ACTIONS.map((action) => [role, action] as const));

  it.each(table)('%s → %s', async (role, action) => {
    const token = await sessionAs(role);
    const status = await REQUESTS[action](token);
    expect(status).toBe(PERMISSIONS[action].includes(role) ? ALLOWED[action] : 403);
  });

  it('refuses a session whose role is unknown', async () => {
    const token = await sessionAs('intruder');
    for (const action of ACTIONS) expect(await REQUESTS[action](token)).toBe(403);
  });

  it('answers 401 to every action without a session', async () => {
    for (const action of ACTIONS) expect(await REQUESTS[action]('not-a-token')).toBe(401);
  });
});
