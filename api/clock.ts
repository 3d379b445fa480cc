/**
 * The time services go by. Passed in (default: the system clock), so tests can move time forward
 * instead of waiting: expiry of codes and sessions, rate-limit windows and lockouts all read it.
 * It is not used for the constant-duration padding of the send answer, which needs real time.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;

/** `date` moved by `ms` milliseconds. */
export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}
