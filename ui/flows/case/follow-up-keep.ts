/**
 * A follow-up's answers kept in the tab while it is being filled (decision 023): a reload, or a phone's
 * return from the iAM Smart app to the page, starts the follow-up again with what the person typed (the
 * uploaded files are listed from the server). Kept per case and form, in sessionStorage (the tab's own,
 * gone when it closes), for 30 minutes, and forgotten once the follow-up is submitted. Not for the update
 * forms: they start from the case's information as it is now, never from an older copy.
 */
const MAX_AGE_MS = 30 * 60_000;

const keyOf = (applicationNo: string, form: string) => `follow-up:${applicationNo}:${form}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The answers kept for this case's form, when there are some younger than 30 minutes. */
export function keptAnswers(applicationNo: string, form: string): Record<string, unknown> | undefined {
  if (!applicationNo) return undefined;
  try {
    const kept = JSON.parse(storage()?.getItem(keyOf(applicationNo, form)) ?? 'null') as {
      answers?: unknown;
      at?: unknown;
    } | null;
    if (!kept || typeof kept.at !== 'number' || Date.now() - kept.at > MAX_AGE_MS) return undefined;
    const answers = kept.answers;
    return typeof answers === 'object' && answers !== null && !Array.isArray(answers)
      ? (answers as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function keepAnswers(applicationNo: string, form: string, answers: Record<string, unknown>): void {
  if (!applicationNo) return;
  try {
    storage()?.setItem(keyOf(applicationNo, form), JSON.stringify({ answers, at: Date.now() }));
  } catch {
    // Storage full or refused: nothing kept, the follow-up still works.
  }
}

export function forgetAnswers(applicationNo: string, form: string): void {
  storage()?.removeItem(keyOf(applicationNo, form));
}
