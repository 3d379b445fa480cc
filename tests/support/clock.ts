import type { Clock } from '../../api/clock';

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-05T01:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance({
    hours = 0,
    minutes = 0,
    seconds = 0,
    ms = 0,
  }: {
    hours?: number;
    minutes?: number;
    seconds?: number;
    ms?: number;
  }): void {
    this.current += ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
  }
}
