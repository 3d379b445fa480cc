import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { consoleActionMachine, type ConsoleActionOutcome } from '../../machines/flows/console-action.machine';
import type {
  DocumentReviewData,
  DocumentReviewResult,
  DocumentReviewStatus,
} from '../../machines/rules/document-review';
import { consoleApi, type ConsoleApiError } from './api';
import { FieldInput, ProblemSummary } from './fields';
import { useConsoleTime } from './time';
import { useRefusal } from './use-refusal';

/**
 * A document's review on the officer's case page (docs/decisions/043-document-review.md): its status
 * (not reviewed, accepted, needs replacement with the reason, replaced), and for an officer who may act on
 * the case a form as every console action goes (machines/flows/console-action.machine.ts): the choice
 * and the reason, a confirmation, the request, the record. A 409 (reviewed meanwhile) names who; the
 * page reloads the case and the form keeps what was typed.
 */
export function DocumentReview({
  applicationNo,
  documentId,
  name,
  review,
  replacedByName,
  replacesAnother,
  mayReview,
  onReviewed,
}: {
  applicationNo: string;
  documentId: number;
  /** The document as the page names it (its type, its file). */
  name: string;
  review: DocumentReviewData | null;
  replacedByName: string | null;
  replacesAnother: boolean;
  mayReview: boolean;
  onReviewed: () => void;
}) {
  const { t, i18n } = useTranslation('console');
  const time = useConsoleTime();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<DocumentReviewStatus>(review?.status ?? 'accepted');
  const [reason, setReason] = useState(review?.reason ?? '');
  // A new machine after each refusal that reloaded the case (what was typed stays).
  const [round, setRound] = useState(0);
  const [moved, setMoved] = useState<ConsoleApiError | null>(null);
  const [saved, setSaved] = useState<DocumentReviewData | null>(null);
  const savedRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (saved) savedRef.current?.focus();
  }, [saved]);

  const by = review ? (i18n.language === 'en' ? review.reviewedBy.nameEn : review.reviewedBy.nameZh) : '';
  const id = `review-${documentId}`;
  return (
    <div className="console__review">
      <p id={`${id}-status`}>
        <span className="console__label">{t('case.review.statusLabel')}</span>{' '}
        {review
          ? t('case.review.reviewedBy', {
              status: t(`case.review.statuses.${review.status}`),
              name: by,
              at: time(review.reviewedAt),
            })
          : t('case.review.statuses.notReviewed')}
        {review?.reason && (
          <>
            <br />
            {t('case.review.reviewedReason')} <span className="console__written">{review.reason}</span>
          </>
        )}
        {replacedByName && (
          <>
            <br />
            <span className="console__flag">{t('case.review.replaced', { name: replacedByName })}</span>
          </>
        )}
        {replacesAnother && (
          <>
            <br />
            {t('case.review.replacement')}
          </>
        )}
      </p>
      {saved && (
        <p role="status" tabIndex={-1} ref={savedRef} className="console__done">
          {t('case.review.saved', { name, status: t(`case.review.statuses.${saved.status}`) })}
        </p>
      )}
      {mayReview && (
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={open ? `${id}-form` : undefined}
          onClick={() => setOpen(!open)}
        >
          {t('case.review.open', { name })}
        </button>
      )}
      {mayReview && open && (
        <ReviewForm
          key={round}
          id={id}
          applicationNo={applicationNo}
          documentId={documentId}
          name={name}
          expectedVersion={review?.version ?? 0}
          status={status}
          reason={reason}
          onStatus={setStatus}
          onReason={setReason}
          refusal={moved}
          onDone={(result, refusal) => {
            if (result) {
              setSaved(result.review);
              setOpen(false);
              setMoved(null);
            } else {
              setMoved(refusal);
              setRound((n) => n + 1);
            }
            onReviewed();
          }}
        />
      )}
    </div>
  );
}

/** A document's size and who uploaded it when (the applicant, the AP or RSE, or the department). */
export function DocumentFacts({
  document,
  by,
  at,
}: {
  document: { bytes: number | null };
  by: string | null;
  at: string;
}) {
  const { t, i18n } = useTranslation('console');
  return (
    <dl className="console__summary console__document-facts">
      {by && (
        <>
          <dt>{t('case.review.by')}</dt>
          <dd>{by}</dd>
        </>
      )}
      <dt>{t('case.review.at')}</dt>
      <dd>{at}</dd>
      {document.bytes !== null && (
        <>
          <dt>{t('case.review.sizeLabel')}</dt>
          <dd>
            {t('case.review.size', {
              size: new Intl.NumberFormat(i18n.language).format(Math.ceil(document.bytes / 1024)),
            })}
          </dd>
        </>
      )}
    </dl>
  );
}

function ReviewForm({
  id,
  applicationNo,
  documentId,
  name,
  expectedVersion,
  status,
  reason,
  onStatus,
  onReason,
  refusal,
  onDone,
}: {
  id: string;
  applicationNo: string;
  documentId: number;
  name: string;
  expectedVersion: number;
  status: DocumentReviewStatus;
  reason: string;
  onStatus: (status: DocumentReviewStatus) => void;
  onReason: (reason: string) => void;
  /** The 409 that brought the form back (reviewed meanwhile). */
  refusal: ConsoleApiError | null;
  onDone: (result: DocumentReviewResult | null, refusal: ConsoleApiError | null) => void;
}) {
  const { t } = useTranslation('console');
  const [missing, setMissing] = useState(false);
  const [snapshot, send] = useMachine(
    consoleActionMachine.provide({
      actors: {
        submitAction: fromPromise<ConsoleActionOutcome, { answers: Record<string, unknown> }>(({ input }) =>
          consoleApi.post<DocumentReviewResult>(
            `cases/${encodeURIComponent(applicationNo)}/documents/${documentId}/review`,
            { ...input.answers, expectedVersion },
          ),
        ),
      },
    }),
  );
  const confirming = snapshot.matches('confirming') || snapshot.matches('sending');
  const busy = snapshot.matches('sending');
  const error = useRefusal(snapshot.context.failure) ?? refusal;
  const confirmRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (snapshot.matches('confirming')) confirmRef.current?.focus();
    if (snapshot.matches('done')) onDone(snapshot.context.result as DocumentReviewResult, null);
    if (snapshot.matches('moved')) onDone(null, error);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per state
  }, [snapshot.value]);

  const needs = status === 'needsReplacement';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (confirming) {
      send({ type: 'action.confirm', answers: needs ? { status, reason } : { status } });
      return;
    }
    setMissing(needs && !reason.trim());
    if (!needs || reason.trim()) send({ type: 'action.continue' });
  };
  const reasonError = missing
    ? t('case.review.reasonRequired')
    : error?.fields.find((f) => f.path === 'reason')?.message;

  return (
    <form
      id={`${id}-form`}
      className="console__action"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h5 id={`${id}-title`} tabIndex={-1} ref={confirmRef}>
        {confirming ? t(`case.review.confirm.${status}`, { name }) : t('case.review.title', { name })}
      </h5>
      <ProblemSummary error={error} />
      {confirming && needs && (
        <p className="console__warning" role="note">
          {t('case.review.warning')}
        </p>
      )}
      <fieldset disabled={confirming || busy} className="console__fieldset">
        <legend>{t('case.review.status')}</legend>
        {(['accepted', 'needsReplacement'] as const).map((s) => (
          <div key={s} className="field field--radio">
            <input
              type="radio"
              id={`${id}-${s}`}
              name={`${id}-status`}
              value={s}
              checked={status === s}
              onChange={() => onStatus(s)}
            />
            <label htmlFor={`${id}-${s}`}>{t(`case.review.statuses.${s}`)}</label>
          </div>
        ))}
        {needs && (
          <FieldInput
            id={`${id}-reason`}
            label={t('case.review.reason')}
            error={reasonError}
            value={reason}
            onChange={onReason}
            multiline
          />
        )}
      </fieldset>
      <div className="console__buttons">
        {confirming && (
          <button type="button" className="button" onClick={() => send({ type: 'action.back' })}>
            {t('case.backButton')}
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {confirming ? t('case.review.save', { name }) : t('case.continue')}
        </button>
      </div>
    </form>
  );
}
