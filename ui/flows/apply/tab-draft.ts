import { api, ApiError } from '../../api';
import { bearerHeaders } from '../../api/draft-auth';
import type { DraftData } from '../../../machines/rules/drafts';
import type { FormDefinition } from '../../../machines/forms/types';
import type { DraftCopy } from '../../../machines/flows/apply/types';
import { areAllStepsValid, indexOfStep } from '../../../machines/flows/apply/steps';
import { unconfirmedParties } from '../../../machines/rules/contacts';
import { draftToken } from './draft-tokens';
import { applyActorFor, type ApplyActor } from './apply-store';

/**
 * The tab's own draft of each form (docs/decisions/027-draft-kept-on-reload.md): its number, and the
 * answers and step as this tab last had them, in sessionStorage (the tab's own, gone when it closes; a new
 * tab starts a new draft). Written at most every 5 seconds (spec §9, persisted state time-out 5000 ms)
 * and at once when the page is left or hidden (pagehide, visibilitychange), so that a reload loses
 * nothing typed since the last autosave. A reload opens the draft from the server by its token (the
 * path a resume takes, `openDraft`) and lays this tab's newer answers over it.
 */
export const TAB_WRITE_INTERVAL_MS = 5000;

interface Kept {
  applicationNo: string | null;
  /** The version the answers were typed over: the server's copy wins when it is newer (another tab saved). */
  version: number | null;
  validUntil: string | null;
  /** A save was on its way when this was written: the server may have taken it (version + 1) unanswered. */
  saving: boolean;
  step: number;
  answers: Record<string, unknown>;
}

const keyOf = (formKey: string) => `apply-tab:${formKey}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function keptTabDraft(formKey: string): Kept | undefined {
  try {
    const v = JSON.parse(storage()?.getItem(keyOf(formKey)) ?? 'null') as Partial<Kept> | null;
    if (!v || typeof v !== 'object' || typeof v.step !== 'number') return undefined;
    if (typeof v.answers !== 'object' || v.answers === null || Array.isArray(v.answers)) return undefined;
    return {
      applicationNo: typeof v.applicationNo === 'string' ? v.applicationNo : null,
      version: typeof v.version === 'number' ? v.version : null,
      validUntil: typeof v.validUntil === 'string' ? v.validUntil : null,
      saving: v.saving === true,
      step: v.step,
      answers: v.answers,
    };
  } catch {
    return undefined;
  }
}

/** Forget the tab's draft of a form: after Exit, submission, or a draft that can no longer be saved. */
export function forgetTabDraft(formKey: string): void {
  try {
    storage()?.removeItem(keyOf(formKey));
  } catch {
    // Storage refused: nothing was kept.
  }
}

function write(formKey: string, actor: ApplyActor): void {
  const s = actor.getSnapshot();
  // Nothing to keep once submitted or left; an untouched form is not kept either.
  if (s.status !== 'active' || s.matches({ wizard: 'success' }) || s.matches({ wizard: 'exited' })) return;
  const c = s.context;
  if (c.applicationNo === null && Object.keys(c.answers).length === 0) return;
  const kept: Kept = {
    applicationNo: c.applicationNo,
    version: c.version,
    validUntil: c.validUntil,
    saving: s.matches({ autosave: 'saving' }),
    step: c.stepIndex + 1,
    answers: c.answers,
  };
  try {
    storage()?.setItem(keyOf(formKey), JSON.stringify(kept));
  } catch {
    // Storage full or refused: the server's autosave still keeps the draft.
  }
}

/**
 * Keep the wizard's state in the tab while it runs: at most every TAB_WRITE_INTERVAL_MS, and at once on
 * pagehide and when the page is hidden. Returns the way to stop (which writes what is pending).
 */
export function keepInTab(formKey: string, actor: ApplyActor): () => void {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    last = Date.now();
    write(formKey, actor);
  };
  flush();
  const sub = actor.subscribe(() => {
    const wait = last + TAB_WRITE_INTERVAL_MS - Date.now();
    if (wait <= 0) flush();
    else timer ??= setTimeout(flush, wait);
  });
  const onHide = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHide);
  return () => {
    sub.unsubscribe();
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onHide);
    if (timer !== undefined) flush();
  };
}

/** Why a reloaded tab starts a new form: its draft expired, was submitted, or can no longer be opened. */
export type StartOver = 'expired' | 'submitted' | 'unavailable';

/** The draft as the API has it (GET /api/drafts/:applicationNo with its token): resume and reload read it so. */
export async function fetchDraft(applicationNo: string, token: string | undefined, quiet = false) {
  return (
    await api.get<DraftData>(`drafts/${encodeURIComponent(applicationNo)}`, undefined, {
      ky: bearerHeaders(token),
      ...(quiet ? { quiet: true } : {}),
    })
  ).data;
}

/**
 * The wizard on a saved draft, on the step it was left at: the draft's own step when reachable with its
 * answers, and the upload step only when the preview was confirmed (every step valid, a contact
 * confirmed). The one path of a resume (ResumePage) and of a reload.
 */
export function openDraft(
  definition: FormDefinition,
  draft: DraftCopy & { verifiedContacts?: DraftData['verifiedContacts'] },
): ApplyActor {
  const actor = applyActorFor(definition, draft);
  const upload = indexOfStep(definition, 'upload');
  const s = actor.getSnapshot();
  // As the preview judges it: every party that must confirm a contact (applicant, contact person) has.
  const confirmed =
    draft.verifiedContacts !== undefined &&
    unconfirmedParties(draft.answers, draft.verifiedContacts).length === 0;
  if (upload >= 0 && draft.step === upload + 1 && s.matches({ wizard: 'preview' }) && confirmed) {
    actor.send({ type: 'contact.verified', verified: true });
    if (areAllStepsValid(actor.getSnapshot().context)) actor.send({ type: 'step.next' });
  }
  return actor;
}

/**
 * After a reload: the tab's draft of this form, opened again (the same number, step and answers), or a
 * new form and why. Without a draft kept in the tab, `undefined` (a new tab, or nothing typed yet).
 */
export async function reopenTabDraft(
  definition: FormDefinition,
): Promise<{ actor: ApplyActor; startOver?: StartOver } | undefined> {
  const kept = keptTabDraft(definition.key);
  if (!kept) return undefined;
  const fresh = (startOver?: StartOver) => {
    forgetTabDraft(definition.key);
    return { actor: applyActorFor(definition, undefined, true), ...(startOver ? { startOver } : {}) };
  };
  // Typed before the first autosave gave a number: the answers come back, and the autosave makes the draft.
  if (kept.applicationNo === null) {
    const actor = applyActorFor(definition, undefined, true);
    for (const [id, value] of Object.entries(kept.answers)) actor.send({ type: 'field.change', id, value });
    return { actor };
  }
  const token = draftToken(kept.applicationNo);
  if (!token) return fresh('unavailable');
  let server: DraftData;
  try {
    server = await fetchDraft(kept.applicationNo, token, true);
  } catch (e) {
    if (e instanceof ApiError && e.status === 410) return fresh('expired');
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return fresh('unavailable');
    // Not reached (network): the tab's own copy, which the autosave saves once the portal answers.
    const actor = openDraft(definition, {
      applicationNo: kept.applicationNo,
      version: kept.version ?? 1,
      validUntil: kept.validUntil ?? '',
      step: kept.step,
      answers: kept.answers,
    });
    return { actor };
  }
  if (server.submittedAt) return fresh('submitted');
  // The tab's answers were typed over the server's version: they are the newer. A newer server copy
  // (saved in another tab or device since) wins, as the stale copy's "Load the newer copy" would.
  // A reload cuts the tab's own save short: the server may have taken it (one version on) unanswered.
  const ours =
    kept.version === server.version ||
    (kept.saving && kept.version !== null && server.version === kept.version + 1);
  const answers = ours ? kept.answers : server.answers;
  const actor = openDraft(definition, { ...server, step: ours ? kept.step : (server.step ?? 1), answers });
  // What the server does not have yet is given to the wizard again (the same values), which saves it.
  for (const [id, value] of Object.entries(answers))
    if (JSON.stringify(value) !== JSON.stringify(server.answers[id]))
      actor.send({ type: 'field.change', id, value });
  return { actor };
}
