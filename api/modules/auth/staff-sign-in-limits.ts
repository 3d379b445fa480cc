import { createHmac } from 'node:crypto';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../../drizzle/db';
import { rateLimits } from '../../../drizzle/schema';
import {
  LOCKOUT_SECONDS,
  SIGN_IN_ACCOUNT_CEILING,
  SIGN_IN_ADDRESS_ATTEMPTS,
  SIGN_IN_ATTEMPTS,
  SIGN_IN_CEILING_SECONDS,
  SIGN_IN_KNOWN_DAYS,
  SIGN_IN_SLOW_AFTER,
  SIGN_IN_SLOW_SECONDS,
} from '../../../machines/rules/staff-sign-in';
import { ApiError } from '../../http/errors';
import { RateLimitedError } from '../../http/rate-limit';

/**
 * The limits of staff sign-in (docs/decisions/030-sign-in-lockouts.md), counted in `rate_limits` by
 * rate-limiter-flexible under HMACs of the user name and the address (the table holds neither).
 *
 * An attempt is reserved **before** the password is checked: each counter is one atomic upsert that counts
 * and answers at once, so however many requests arrive together, no more reach the check than a counter
 * allows. A request refused by one counter gives back what it took from the others (only attempts that
 * reached the check count); a failed check keeps its points; a sign-in gives back its address's point and
 * forgets the account's failures.
 *
 * - account + address: SIGN_IN_ATTEMPTS failures in LOCKOUT_SECONDS lock that account from that address
 *   (429 STAFF_LOCKED): a stranger elsewhere locks only their own pair;
 * - address, any user name: SIGN_IN_ADDRESS_ATTEMPTS failures in LOCKOUT_SECONDS (429 RATE_LIMITED);
 * - account, from addresses it has not signed in from within SIGN_IN_KNOWN_DAYS: past SIGN_IN_SLOW_AFTER
 *   consecutive failures one try every SIGN_IN_SLOW_SECONDS, past SIGN_IN_ACCOUNT_CEILING none
 *   (429 RATE_LIMITED). An address the officer has signed in from is never held back by others' failures.
 */
export interface SignInLimits {
  attempts: number;
  seconds: number;
  addressAttempts: number;
  slowAfter: number;
  slowSeconds: number;
  ceiling: number;
  ceilingSeconds: number;
  knownDays: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  attempts: SIGN_IN_ATTEMPTS,
  seconds: LOCKOUT_SECONDS,
  addressAttempts: SIGN_IN_ADDRESS_ATTEMPTS,
  slowAfter: SIGN_IN_SLOW_AFTER,
  slowSeconds: SIGN_IN_SLOW_SECONDS,
  ceiling: SIGN_IN_ACCOUNT_CEILING,
  ceilingSeconds: SIGN_IN_CEILING_SECONDS,
  knownDays: SIGN_IN_KNOWN_DAYS,
};

export class StaffLockedError extends ApiError {
  constructor(seconds: number) {
    super(
      429,
      'STAFF_LOCKED',
      'staff.locked',
      { retryAfterSeconds: seconds },
      { params: { minutes: Math.ceil(seconds / 60) }, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

/** An attempt that may go on to the password check. */
export interface SignInAttempt {
  /** The sign-in succeeded: give back the address's point, forget the failures, remember the address. */
  succeeded(): Promise<void>;
}

export interface SignInGate {
  /** Reserves an attempt of `username` from `address`, or throws the 429 that applies. */
  reserve(username: string, address: string): Promise<SignInAttempt>;
}

const secondsOf = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export function createSignInGate({
  db,
  secret,
  limits = {},
}: {
  db: Db;
  secret: string | Buffer;
  limits?: Partial<SignInLimits>;
}): SignInGate {
  const l = { ...DEFAULT_SIGN_IN_LIMITS, ...limits };
  // One table: one of the counters clears its expired rows (every five minutes), the others need not.
  const counter = (keyPrefix: string, points: number, duration: number, clearExpiredByTimeout = false) =>
    new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix,
      points,
      duration,
      clearExpiredByTimeout,
    });
  const perPair = counter('staffSignInPair', l.attempts, l.seconds, true);
  const perAddress = counter('staffSignInAddress', l.addressAttempts, l.seconds);
  const perAccount = counter('staffSignInAccount', l.ceiling, l.ceilingSeconds);
  const slow = counter('staffSignInSlow', 1, l.slowSeconds);
  const knownSeconds = l.knownDays * 24 * 60 * 60;
  const known = counter('staffSignInKnown', 1, knownSeconds);
  const hmac = (value: string) => createHmac('sha256', secret).update(value).digest('base64url');

  return {
    async reserve(username, address) {
      const keys = {
        pair: hmac(`staff-pair|${username}|${address}`),
        address: hmac(`staff-address|${address}`),
        account: hmac(`staff|${username}`),
        known: hmac(`staff-known|${username}|${address}`),
      };
      const taken: [RateLimiterDrizzle, string][] = [];
      const giveBack = () => Promise.all(taken.map(([limiter, key]) => limiter.reward(key)));
      /** Counts one attempt: the count after it, and whether it is within the limit. */
      const take = async (limiter: RateLimiterDrizzle, key: string) => {
        try {
          const res = await limiter.consume(key);
          taken.push([limiter, key]);
          return { within: true, res };
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) {
            await giveBack();
            throw rejection;
          }
          taken.push([limiter, key]);
          return { within: false, res: rejection };
        }
      };
      const refuse = async (error: ApiError): Promise<never> => {
        await giveBack();
        throw error;
      };

      const byAddress = await take(perAddress, keys.address);
      if (!byAddress.within) await refuse(new RateLimitedError(secondsOf(byAddress.res)));
      const byPair = await take(perPair, keys.pair);
      if (!byPair.within) await refuse(new StaffLockedError(secondsOf(byPair.res)));
      if (!(await known.get(keys.known))) {
        const byAccount = await take(perAccount, keys.account);
        if (!byAccount.within) await refuse(new RateLimitedError(secondsOf(byAccount.res)));
        if (byAccount.res.consumedPoints > l.slowAfter) {
          const spaced = await take(slow, keys.account);
          if (!spaced.within) await refuse(new RateLimitedError(secondsOf(spaced.res)));
        }
      }
      return {
        async succeeded() {
          await Promise.all([
            perAddress.reward(keys.address),
            perPair.delete(keys.pair),
            perAccount.delete(keys.account),
            known.set(keys.known, 1, knownSeconds),
          ]);
        },
      };
    },
  };
}
