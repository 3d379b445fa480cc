import type { Page } from '@playwright/test';
import type { AnyEventObject } from 'xstate';

/** What the replay knows while it walks one path. */
export interface PersonContext {
  page: Page;
  /** An applicant of the tests' own database (fixtures.ts), fresh for this path. */
  applicant: { applicationNo: string; email: string; mobile: string };
}

/** How a person causes one event (or how the real server is brought to answer with it). */
export interface EventAction {
  /** Arranges the server or the network before the path starts (an earlier send, an aborted request). */
  prepare?: (ctx: PersonContext) => Promise<void>;
  /** What the person does, or waits for, at this step. */
  act: (ctx: PersonContext) => Promise<void>;
}

/** The mapping of a flow with screens: events to actions, screen states to what the person sees. */
export interface PersonMapping {
  flowId: string;
  /** The route to open at the start of every path. */
  start: string;
  /** The first of the test applicants its paths log in to, one per screen (default 30). */
  firstApplicant?: number;
  /** An event's action; `null` when no person can cause it here (the reason is in `notReplayed`). */
  action: (event: AnyEventObject) => EventAction | null;
  /** The URL path of a screen state (its `meta.route` resolved); `start` when absent. */
  route?: (screenId: string) => string;
  /**
   * Per screen state (its state node id, e.g. `loginOtp.enterDetails`; a state with `meta.route`, or a child's
   * with `meta.screen`): what the person sees there.
   */
  sees: Record<string, (ctx: PersonContext) => Promise<void>>;
  /** Screen states no browser path can reach here, with the reason and where else they are proven. */
  notReplayed: Record<string, string>;
}
