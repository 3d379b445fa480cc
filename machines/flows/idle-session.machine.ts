import { assign, fromPromise, setup } from 'xstate';

/**
 * The idle session (spec §4, §9) with the warning WCAG 2.2.1 asks for. Pure: it owns the schedule (XState
 * `after`, so a test drives it with a SimulatedClock) and receives facts as events; every effect is a named
 * action or actor the UI overrides with `idleSessionMachine.provide(...)`:
 *
 * - every 5 s it runs `requestCheck`; the UI's version reads the stored last operation time (shared by all
 *   tabs) and the clock and sends `session.check { lastOperationTime, now }` back (`self.send`);
 * - user activity arrives as `session.activity { now }` and is written back through `storeLastOperationTime`;
 * - logging out runs `clearLoginFlag`, `resetAuth` and `goHome`; staying signed in invokes `extendSession`.
 *
 * Diagram and message keys: docs/flows/idle-session.md.
 */

export const DEFAULT_IDLE_MINUTES = 30;
export const CHECK_INTERVAL_MS = 5000;
export const WARNING_BEFORE_MS = 120_000;
export const COUNTDOWN_TICK_MS = 1000;
/** `announceAt` takes these values only, so a screen reader hears the countdown at most at these moments. */
export const ANNOUNCE_AT_SECONDS = [120, 90, 60, 30, 10] as const;

/** The timeout from master data; anything missing, not a number or not positive gives the default. */
export function idleMinutes(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : DEFAULT_IDLE_MINUTES;
}

/** The coarse announcement step for a number of seconds left (120 while 91..120 are left, ..., 10 for 0..10). */
export function announceAtFor(secondsLeft: number): number {
  let step: number = ANNOUNCE_AT_SECONDS[0];
  for (const s of ANNOUNCE_AT_SECONDS) if (secondsLeft <= s) step = s;
  return step;
}

export type StoredTimeVerdict = 'expired' | 'warning' | 'fresh';

/** The rule of a check: missing, in the future, or at/over the timeout logs out; the last 2 minutes warn. */
export function judgeStoredTime(
  lastOperationTime: number | null,
  now: number,
  timeoutMinutes: number,
): StoredTimeVerdict {
  if (lastOperationTime === null || !Number.isFinite(lastOperationTime) || lastOperationTime > now)
    return 'expired';
  const left = lastOperationTime + timeoutMinutes * 60_000 - now;
  if (left <= 0) return 'expired';
  return left <= WARNING_BEFORE_MS ? 'warning' : 'fresh';
}

export interface IdleSessionContext {
  timeoutMinutes: number;
  /** The stored time as last seen by a check or written on activity. */
  lastOperationTime: number | null;
  /** The warning's countdown, and its coarse step for screen-reader announcements. */
  secondsLeft: number;
  announceAt: number;
}

export type IdleSessionEvent =
  | { type: 'session.start'; timeoutMinutes?: number | string | null }
  | { type: 'session.activity'; now: number }
  | { type: 'session.check'; lastOperationTime: number | null; now: number }
  | { type: 'session.extend'; now: number }
  | { type: 'session.stop' };

type CheckEvent = Extract<IdleSessionEvent, { type: 'session.check' }>;
const verdict = (context: IdleSessionContext, event: IdleSessionEvent) =>
  event.type === 'session.check'
    ? judgeStoredTime(event.lastOperationTime, event.now, context.timeoutMinutes)
    : 'fresh';
const countdown = (context: IdleSessionContext, event: CheckEvent) =>
  Math.max(
    0,
    Math.ceil(((event.lastOperationTime ?? 0) + context.timeoutMinutes * 60_000 - event.now) / 1000),
  );

export const idleSessionMachine = setup({
  types: {
    context: {} as IdleSessionContext,
    events: {} as IdleSessionEvent,
  },
  actors: {
    /** Server keepalive (extends the token's idle expiry); the UI provides it. */
    extendSession: fromPromise<void>(() => Promise.reject(new Error('extendSession is not provided'))),
  },
  delays: {
    checkInterval: CHECK_INTERVAL_MS,
    countdownTick: COUNTDOWN_TICK_MS,
  },
  guards: {
    isStoredTimeExpired: ({ context, event }) => verdict(context, event) === 'expired',
    isStoredTimeInWarning: ({ context, event }) => verdict(context, event) === 'warning',
    isCountdownEnding: ({ context }) => context.secondsLeft <= 1,
  },
  actions: {
    // Effects: no-ops here, provided by the UI.
    requestCheck: () => {},
    storeLastOperationTime: (_, _params: { time: number }) => {},
    clearLoginFlag: () => {},
    resetAuth: () => {},
    goHome: () => {},
    // Context.
    assignTimeout: assign({
      timeoutMinutes: ({ event }) =>
        event.type === 'session.start' ? idleMinutes(event.timeoutMinutes) : DEFAULT_IDLE_MINUTES,
      lastOperationTime: null,
      secondsLeft: 0,
      announceAt: 0,
    }),
    assignOperationTime: assign({
      lastOperationTime: ({ context, event }) => {
        if (event.type === 'session.check') return event.lastOperationTime;
        if (event.type === 'session.activity' || event.type === 'session.extend') return event.now;
        return context.lastOperationTime;
      },
    }),
    assignCountdown: assign(({ context, event }) => {
      if (event.type !== 'session.check') return {};
      const secondsLeft = countdown(context, event);
      return {
        lastOperationTime: event.lastOperationTime,
        secondsLeft,
        announceAt: announceAtFor(secondsLeft),
      };
    }),
    countDown: assign(({ context }) => {
      const secondsLeft = Math.max(0, context.secondsLeft - 1);
      return { secondsLeft, announceAt: announceAtFor(secondsLeft) };
    }),
    clearCountdown: assign({ secondsLeft: 0, announceAt: 0 }),
  },
}).createMachine({
  id: 'idleSession',
  context: { timeoutMinutes: DEFAULT_IDLE_MINUTES, lastOperationTime: null, secondsLeft: 0, announceAt: 0 },
  initial: 'inactive',
  states: {
    inactive: {
      on: { 'session.start': { target: 'active', actions: ['assignTimeout', 'requestCheck'] } },
    },
    active: {
      entry: 'clearCountdown',
      after: { checkInterval: { target: 'active', reenter: true, actions: 'requestCheck' } },
      on: {
        'session.activity': {
          actions: [
            'assignOperationTime',
            { type: 'storeLastOperationTime', params: ({ event }) => ({ time: event.now }) },
          ],
        },
        'session.check': [
          { guard: 'isStoredTimeExpired', target: 'loggedOut' },
          { guard: 'isStoredTimeInWarning', target: 'warning', actions: 'assignCountdown' },
          { actions: 'assignOperationTime' },
        ],
        'session.stop': 'inactive',
      },
    },
    warning: {
      meta: {
        dialog: 'idleWarning',
        titleKey: 'auth:idle.title',
        messageKey: 'auth:idle.body',
      },
      initial: 'counting',
      // Activity in this tab is ignored while the dialog is open: staying signed in takes the explicit choice.
      after: { checkInterval: { target: 'warning', reenter: true, actions: 'requestCheck' } },
      on: {
        'session.check': [
          { guard: 'isStoredTimeExpired', target: 'loggedOut' },
          { guard: 'isStoredTimeInWarning', actions: 'assignCountdown' },
          { target: 'active', actions: 'assignOperationTime' },
        ],
        'session.extend': {
          target: 'staySignedIn',
          actions: [
            'assignOperationTime',
            { type: 'storeLastOperationTime', params: ({ event }) => ({ time: event.now }) },
          ],
        },
        'session.stop': 'inactive',
      },
      states: {
        counting: {
          after: {
            countdownTick: [
              {
                guard: 'isCountdownEnding',
                target: 'counting',
                reenter: true,
                actions: ['countDown', 'requestCheck'],
              },
              { target: 'counting', reenter: true, actions: 'countDown' },
            ],
          },
        },
      },
    },
    staySignedIn: {
      meta: { dialog: 'idleWarning', titleKey: 'auth:idle.title', busy: true },
      invoke: {
        id: 'extendSession',
        src: 'extendSession',
        onDone: { target: 'active' },
        onError: { target: 'loggedOut' },
      },
      on: { 'session.stop': 'inactive' },
    },
    loggedOut: {
      meta: { messageKey: 'auth:idle.loggedOut' },
      entry: ['clearCountdown', 'clearLoginFlag', 'resetAuth', 'goHome'],
      on: { 'session.start': { target: 'active', actions: ['assignTimeout', 'requestCheck'] } },
    },
  },
});
