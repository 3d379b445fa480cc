/**
 * A follow-up's answers kept in the tab while it is being filled (decisions 023 and 027): a reload, or a
 * phone's return from the iAM Smart app to the page, starts the follow-up again with what the person typed
 * (the uploaded files are listed from the server) on the screen they were at. Kept per case and form, in
 * sessionStorage (the tab's own, gone when it closes), for 30 minutes, and forgotten once the follow-up is
 * submitted. An update form keeps only what the person changed: it starts again from the case's
 * information as it is now, with those changes laid over it (as a stale update does).
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

/** The screens a reload returns to (signing starts again from the preview). */
export type KeptScreen = 'fill' | 'upload' | 'preview';

/** The screen kept with the answers of this case's form (see keptAnswers). */
export function keptScreen(applicationNo: string, form: string): KeptScreen {
  if (!applicationNo || keptAnswers(applicationNo, form) === undefined) return 'fill';
  try {
    const kept = JSON.parse(storage()?.getItem(keyOf(applicationNo, form)) ?? 'null') as {
      screen?: unknown;
    } | null;
    return kept?.screen === 'upload' || kept?.screen === 'preview' ? kept.screen : 'fill';
  } catch {
    return 'fill';
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

export function keepAnswers(
  applicationNo: string,
  form: string,
  answers: Record<string, unknown>,
  screen: KeptScreen = 'fill',
): void {
  if (!applicationNo) return;
  try {
    storage()?.setItem(keyOf(applicationNo, form), JSON.stringify({ answers, screen, at: Date.now() }));
  } catch {
    // Storage full or refused: nothing kept, the follow-up still works.
  }
}

export function forgetAnswers(applicationNo: string, form: string): void {
  storage()?.removeItem(keyOf(applicationNo, form));
}

/** The answers that differ from the information an update form opened on: what an update form keeps. */
export function changedAnswers(
  opened: Record<string, unknown>,
  answers: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answers).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(opened[k])),
  );
}
