import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

/**
 * The authorisation matrix of issue 12: who (applicant, AP, RSE, an AP of another case, a revoked AP, no
 * session) × every endpoint of a case, as one table. Each column runs in a world of its own (a case in
 * "Letter of Requirements issued" with an active AP and RSE and an open invitation), in the table's order,
 * so that what one request changes (an inspection requested, the case withdrawn) does not hide another.
 */
let h: AppointmentHarness;

beforeAll(async () => {
  h = await startAppointmentHarness();
});

afterAll(async () => {
  await h?.close();
});

type Who = 'applicant' | 'ap' | 'rse' | 'otherAp' | 'revokedAp' | 'none';
const WHO: Who[] = ['applicant', 'ap', 'rse', 'otherAp', 'revokedAp', 'none'];

interface World {
  applicationNo: string;
  invitedId: number;
  rseId: number;
  token: string | undefined;
  /** `?applicationNo=` of the world's case: an AP of another case names it to reach it. */
  query: string;
}

async function worldFor(who: Who): Promise<World> {
  const c = await h.applicantCase('LOR_ISSUED');
  const ap = await h.appointed(c.token, 'ap');
  const rse = await h.appointed(c.token, 'rse');
  const invite = h.appointeeAnswers('ap');
  await h.act(c.token, 'appointment', invite);
  const invited = (await h.list(c.token)).body.data.find((a) => a.status === 'INVITED')!;
  const loginOf = async (answers: Record<string, string>) =>
    (await h.appointeeLogin(answers.registrationNumber!, answers.email!)).body.data.token;
  const base = {
    applicationNo: c.applicationNo,
    invitedId: invited.id,
    rseId: rse.appointment.id,
    query: '',
  };
  switch (who) {
    case 'applicant':
      return { ...base, token: c.token };
    case 'ap':
      return { ...base, token: await loginOf(ap.answers) };
    case 'rse':
      return { ...base, token: await loginOf(rse.answers) };
    case 'otherAp': {
      const other = await h.applicantCase('LOR_ISSUED');
      const theirs = await h.appointed(other.token, 'ap');
      return { ...base, token: await loginOf(theirs.answers), query: `?applicationNo=${c.applicationNo}` };
    }
    case 'revokedAp': {
      const token = await loginOf(ap.answers);
      await h.call('POST', `/api/cases/current/appointments/${ap.appointment.id}/revoke`, {
        token: c.token,
        body: { reason: 'Replaced by another firm.' },
      });
      return { ...base, token };
    }
    case 'none':
      return { ...base, token: undefined };
  }
}

type Endpoint = (w: World) => Promise<number>;
const status = async (p: Promise<{ status: number }>) => (await p).status;

/** Every endpoint of a case, in the order each world runs them (the withdrawal last). */
const ENDPOINTS: [string, Endpoint][] = [
  ['GET /api/cases/current', (w) => status(h.current(w.token ?? 'x', w.query))],
  [
    'GET /api/application/history',
    (w) => status(h.call('GET', `/api/application/history${w.query}`, { token: w.token })),
  ],
  [
    'GET /api/cases/current/documents/:id',
    (w) => status(h.download(`/api/cases/current/documents/999999${w.query}`, w.token)),
  ],
  [
    'GET /api/cases/current/appointments',
    (w) => status(h.call('GET', `/api/cases/current/appointments${w.query}`, { token: w.token })),
  ],
  [
    'POST /api/appointee/cases/select',
    (w) =>
      status(
        h.call('POST', '/api/appointee/cases/select', {
          token: w.token,
          body: { applicationNo: w.applicationNo },
        }),
      ),
  ],
  [
    'GET /api/cases/current/information.pdf',
    (w) => status(h.download(`/api/cases/current/information.pdf${w.query}`, w.token)),
  ],
  [
    'POST /api/cases/current/messages',
    (w) =>
      status(
        h.call('POST', `/api/cases/current/messages${w.query}`, {
          token: w.token,
          body: { body: 'When will the inspection be?' },
        }),
      ),
  ],
  [
    'POST actions/requestForInspection',
    (w) => status(h.act(w.token, `requestForInspection${w.query}`, h.inspectionAnswers())),
  ],
  [
    'POST actions/appointment',
    (w) => status(h.act(w.token, `appointment${w.query}`, h.appointeeAnswers('rse'))),
  ],
  [
    'POST appointments/:id/cancel',
    (w) =>
      status(h.call('POST', `/api/cases/current/appointments/${w.invitedId}/cancel`, { token: w.token })),
  ],
  [
    'POST appointments/:id/revoke',
    (w) =>
      status(
        h.call('POST', `/api/cases/current/appointments/${w.rseId}/revoke`, {
          token: w.token,
          body: { reason: 'No longer needed.' },
        }),
      ),
  ],
  [
    'POST actions/withdrawApplication',
    (w) => status(h.act(w.token, `withdrawApplication${w.query}`, { confirm: true })),
  ],
];

/** What each gets: one row per endpoint, one column per person (WHO's order). */
const EXPECTED: Record<string, number[]> = {
  'GET /api/cases/current': [200, 200, 200, 403, 403, 401],
  'GET /api/application/history': [200, 200, 200, 403, 403, 401],
  'GET /api/cases/current/documents/:id': [404, 404, 404, 403, 403, 401],
  'GET /api/cases/current/appointments': [200, 403, 403, 403, 403, 401],
  'POST /api/appointee/cases/select': [403, 200, 200, 403, 403, 401],
  'GET /api/cases/current/information.pdf': [200, 403, 403, 403, 403, 401],
  'POST /api/cases/current/messages': [200, 200, 200, 403, 403, 401],
  'POST actions/requestForInspection': [200, 200, 200, 403, 403, 401],
  'POST actions/appointment': [200, 403, 403, 403, 403, 401],
  'POST appointments/:id/cancel': [200, 403, 403, 403, 403, 401],
  'POST appointments/:id/revoke': [200, 403, 403, 403, 403, 401],
  'POST actions/withdrawApplication': [200, 403, 403, 403, 403, 401],
};

describe('the authorisation matrix of a case (people × endpoints)', () => {
  it.each(WHO.map((who, column) => [who, column] as const))(
    '%s',
    async (who, column) => {
      const world = await worldFor(who);
      const got: Record<string, number> = {};
      for (const [name, call] of ENDPOINTS) got[name] = await call(world);
      const want = Object.fromEntries(Object.entries(EXPECTED).map(([name, row]) => [name, row[column]]));
      expect(got).toEqual(want);
    },
    60_000,
  );
});
