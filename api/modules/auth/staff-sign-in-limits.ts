import { createHmac } from 'node:crypto';
import { and, eq, gt, gte, like, or } from 'drizzle-orm';
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
  /**
   * Until when `username` is locked from some address, or held back from all unknown ones (the latest
   * such end), or null (docs/decisions/036-staff-administration.md: the admin's staff list). The wall
   * clock's time, as rate-limiter-flexible's expiries are.
   */
  lockedUntil(username: string): Promise<Date | null>;
  /** Forgets every failure of `username`: its pairs with any address and its own count (the admin's unlock). */
  unlock(username: string): Promise<void>;
}

/** A LIKE pattern matching `text` literally (base64url holds `_`, LIKE's one-character wildcard). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

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

  /**
   * A pair's key starts with the account's own HMAC, so that an admin can find and clear the account's
   * pairs without knowing the addresses (which stay HMACs). Old keys (before 036) are forgotten.
   */
  const pairPrefix = (username: string) => `staffSignInPair:${hmac(`staff-pair-account|${username}`)}.`;
  const accountKeys = (username: string) => {
    const account = hmac(`staff|${username}`);
    return [perAccount.getKey(account), slow.getKey(account)];
  };

  return {
    async lockedUntil(username) {
      const now = new Date();
      const [pairs, ceiling] = await Promise.all([
        db
          .select({ expire: rateLimits.expire })
          .from(rateLimits)
          .where(
            and(
              like(rateLimits.key, `${likeEscaped(pairPrefix(username))}%`),
              gte(rateLimits.points, l.attempts),
              gt(rateLimits.expire, now),
            ),
          ),
        db
          .select({ expire: rateLimits.expire })
          .from(rateLimits)
          .where(
            and(
              eq(rateLimits.key, perAccount.getKey(hmac(`staff|${username}`))),
              gte(rateLimits.points, l.ceiling),
              gt(rateLimits.expire, now),
            ),
          ),
      ]);
      const ends = [...pairs, ...ceiling].map((r) => r.expire?.getTime() ?? 0).filter((t) => t > 0);
      return ends.length ? new Date(Math.max(...ends)) : null;
    },

    async unlock(username) {
      const [accountKey, slowKey] = accountKeys(username);
      await db
        .delete(rateLimits)
        .where(
          or(
            like(rateLimits.key, `${likeEscaped(pairPrefix(username))}%`),
            eq(rateLimits.key, accountKey ?? ''),
            eq(rateLimits.key, slowKey ?? ''),
          ),
        );
    },

    async reserve(username, address) {
      const keys = {
        pair: `${pairPrefix(username).slice('staffSignInPair:'.length)}${hmac(`staff-pair|${username}|${address}`)}`,
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
