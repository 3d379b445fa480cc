import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import {
  announceAtFor,
  CHECK_INTERVAL_MS,
  DEFAULT_IDLE_MINUTES,
  idleMinutes,
  idleSessionMachine,
} from '../../machines/flows/idle-session.machine';
import { advance } from './support';

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const MINUTE = 60_000;

/**
 * An idle-session actor wired as the UI wires it: `requestCheck` reads a fake shared store (localStorage,
 * written by every tab) and the clock and answers with `session.check`; effects are spies.
 */
function start(options: { stored?: number | null; extend?: 'ok' | 'fail' } = {}) {
  const clock = new SimulatedClock();
  clock.set(START);
  const store = { lastOperationTime: options.stored === undefined ? START : options.stored };
  const effects = {
    requestCheck: vi.fn<() => void>(),
    storeLastOperationTime: vi.fn((time: number) => (store.lastOperationTime = time)),
    clearLoginFlag: vi.fn<() => void>(),
    resetAuth: vi.fn<() => void>(),
    goHome: vi.fn<() => void>(),
    extendSession: vi.fn(() =>
      options.extend === 'fail' ? Promise.reject(new Error('401')) : Promise.resolve(),
    ),
  };
  const machine = idleSessionMachine.provide({
    actions: {
      requestCheck: ({ self }) => {
        effects.requestCheck();
        self.send({ type: 'session.check', lastOperationTime: store.lastOperationTime, now: clock.now() });
      },
      storeLastOperationTime: (_, params) => effects.storeLastOperationTime(params.time),
      clearLoginFlag: () => effects.clearLoginFlag(),
      resetAuth: () => effects.resetAuth(),
      goHome: () => effects.goHome(),
    },
    actors: { extendSession: fromPromise(() => effects.extendSession()) },
  });
  const actor = createActor(machine, { clock }).start();
  const state = () => actor.getSnapshot();
  return { actor, clock, store, effects, state };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('idle session', () => {
  it('stays inactive and checks nothing until the session starts', () => {
    const t = start();
    advance(t.clock, MINUTE);
    expect(t.state().value).toBe('inactive');
    expect(t.effects.requestCheck).not.toHaveBeenCalled();
  });

  it('uses 30 minutes when no timeout is given', () => {
    for (const value of [undefined, null, '', 'abc', 0, -5])
      expect(idleMinutes(value)).toBe(DEFAULT_IDLE_MINUTES);
    expect(idleMinutes('15')).toBe(15);
    const t = start();
    t.actor.send({ type: 'session.start' });
    expect(t.state().context.timeoutMinutes).toBe(30);
  });

  it('checks at the start and then every 5 seconds', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    expect(t.effects.requestCheck).toHaveBeenCalledTimes(1);
    advance(t.clock, 4 * CHECK_INTERVAL_MS);
    expect(t.effects.requestCheck).toHaveBeenCalledTimes(5);
  });

  it.each([
    ['missing', null],
    ['in the future', START + 1000],
    ['older than the timeout', START - 31 * MINUTE],
  ])('logs out when the stored time is %s, and stops checking', (_, stored) => {
    const t = start({ stored });
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    expect(t.state().value).toBe('loggedOut');
    expect(t.effects.clearLoginFlag).toHaveBeenCalledTimes(1);
    expect(t.effects.resetAuth).toHaveBeenCalledTimes(1);
    expect(t.effects.goHome).toHaveBeenCalledTimes(1);
    advance(t.clock, MINUTE);
    expect(t.effects.requestCheck).toHaveBeenCalledTimes(1);
  });

  it('stores the time of each activity', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    t.actor.send({ type: 'session.activity', now: START + 1234 });
    expect(t.effects.storeLastOperationTime).toHaveBeenCalledWith(START + 1234);
    expect(t.store.lastOperationTime).toBe(START + 1234);
  });

  it('shows the warning 2 minutes before the timeout, with the seconds left', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 28 * MINUTE - CHECK_INTERVAL_MS);
    expect(t.state().value).toBe('active');
    advance(t.clock, CHECK_INTERVAL_MS);
    expect(t.state().matches('warning')).toBe(true);
    expect(t.state().context).toMatchObject({ secondsLeft: 120, announceAt: 120 });
    advance(t.clock, 30_000);
    expect(t.state().context).toMatchObject({ secondsLeft: 90, announceAt: 90 });
  });

  it('changes announceAt only at 120, 90, 60, 30 and 10 seconds, then logs out at the timeout', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 28 * MINUTE);
    const seen: number[] = [];
    while (t.state().matches('warning')) {
      const at = t.state().context.announceAt;
      if (seen.at(-1) !== at) seen.push(at);
      advance(t.clock, 1000);
    }
    expect(seen).toEqual([120, 90, 60, 30, 10]);
    expect(t.state().value).toBe('loggedOut');
    expect(t.clock.now()).toBe(START + 30 * MINUTE);
    expect(announceAtFor(11)).toBe(30);
  });

  it('ignores activity in this tab while the warning is open', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 28 * MINUTE);
    t.actor.send({ type: 'session.activity', now: t.clock.now() });
    expect(t.state().matches('warning')).toBe(true);
    expect(t.effects.storeLastOperationTime).not.toHaveBeenCalled();
  });

  it('extends the session when the user chooses to stay signed in', async () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 29 * MINUTE);
    t.actor.send({ type: 'session.extend', now: t.clock.now() });
    expect(t.state().value).toBe('staySignedIn');
    await flush();
    expect(t.effects.extendSession).toHaveBeenCalledTimes(1);
    expect(t.state().value).toBe('active');
    expect(t.store.lastOperationTime).toBe(START + 29 * MINUTE);
    advance(t.clock, 27 * MINUTE);
    expect(t.state().value).toBe('active');
  });

  it('logs out when extending the session fails', async () => {
    const t = start({ extend: 'fail' });
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 29 * MINUTE);
    t.actor.send({ type: 'session.extend', now: t.clock.now() });
    await flush();
    expect(t.state().value).toBe('loggedOut');
    expect(t.effects.goHome).toHaveBeenCalledTimes(1);
  });

  it("stays active when another tab's activity moved the stored time forward", () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 20 * MINUTE);
    t.store.lastOperationTime = t.clock.now(); // written by the other tab
    advance(t.clock, 15 * MINUTE);
    expect(t.state().value).toBe('active');
    expect(t.effects.clearLoginFlag).not.toHaveBeenCalled();
  });

  it('closes the warning when another tab moves the stored time forward', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    advance(t.clock, 28 * MINUTE + 10_000);
    expect(t.state().matches('warning')).toBe(true);
    t.store.lastOperationTime = t.clock.now();
    advance(t.clock, CHECK_INTERVAL_MS);
    expect(t.state().value).toBe('active');
    expect(t.state().context.secondsLeft).toBe(0);
  });

  it('stops tracking on logout', () => {
    const t = start();
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    t.actor.send({ type: 'session.stop' });
    advance(t.clock, 40 * MINUTE);
    expect(t.state().value).toBe('inactive');
    expect(t.effects.requestCheck).toHaveBeenCalledTimes(1);
    expect(t.effects.goHome).not.toHaveBeenCalled();
  });

  it('starts again after a logout when the user logs in again', () => {
    const t = start({ stored: null });
    t.actor.send({ type: 'session.start', timeoutMinutes: 30 });
    expect(t.state().value).toBe('loggedOut');
    t.store.lastOperationTime = t.clock.now();
    t.actor.send({ type: 'session.start', timeoutMinutes: 10 });
    expect(t.state().value).toBe('active');
    expect(t.state().context.timeoutMinutes).toBe(10);
  });
});
