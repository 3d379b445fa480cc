/**
 * The separate stored item of spec §3: the last operation time and the login flag, shared by every tab
 * of the portal (so activity in one tab keeps the others alive).
 */
export const ACTIVITY_STORAGE_KEY = 'last-operation';

interface Stored {
  time: number | null;
  isLogin: boolean;
}

/** The stored item of the case officer console's staff session (its own, apart from the applicants'). */
export const STAFF_ACTIVITY_STORAGE_KEY = 'staff-last-operation';

export function readActivity(key = ACTIVITY_STORAGE_KEY): Stored {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    if (typeof v === 'object' && v !== null) {
      const r = v as Record<string, unknown>;
      return {
        time: typeof r.time === 'number' && Number.isFinite(r.time) ? r.time : null,
        isLogin: r.isLogin === true,
      };
    }
  } catch {
    // Corrupt: treated as missing, which logs out (spec §4).
  }
  return { time: null, isLogin: false };
}

export function writeActivity(value: Stored, key = ACTIVITY_STORAGE_KEY): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage unavailable: the check then finds no time and logs out, the safe side.
  }
}
