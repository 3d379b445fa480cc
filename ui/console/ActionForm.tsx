import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { fromPromise } from 'xstate';
import { consoleActionMachine, type ConsoleActionOutcome } from '../../machines/flows/console-action.machine';
import { useTranslation } from 'react-i18next';
import { applicableFieldIds, fieldsOf } from '../../machines/forms';
import {
  ACTION_FORMS,
  answersOf,
  initialValues,
  type ActionValues,
} from '../../machines/forms/console-actions';
import type { Field } from '../../machines/forms/types';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import {
  eventKey,
  type ConsoleActionResult,
  type ConsoleEvent,
  type StaffSummary,
} from '../../machines/rules/staff';
import { FieldRenderer } from '../flows/apply/FieldRenderer';
import { consoleApi } from './api';
import { useRefusal } from './use-refusal';
import { ProblemSummary } from './fields';
import { formatDate } from '../components/format';

/** Decisions the applicant is told of at once and that only a senior officer's correction can undo. */
const WARNED: ReadonlySet<ConsoleEvent> = new Set([
  'case.reject',
  'certificate.issue',
  'certificate.revoke',
  'lor.withdraw',
  'case.close',
]);

/**
 * One action of the lifecycle on a case: its form, a confirmation, then the record (or the problem, in
 * the page language), as the machine machines/flows/console-action.machine.ts goes. The form is the
 * action's definition (machines/forms/console-actions.ts), its fields drawn by the applicant's field
 * renderer; the API decides, and its messages are shown at the fields they name. A 409 tells that the
 * case moved: the page reloads it, says who changed it and keeps what was typed (docs/console.md).
 */
export function ActionForm({
  applicationNo,
  event,
  status,
  staff,
  requestableDocuments,
  openRequests,
  meId,
  today,
  kept,
  propose = false,
  onDone,
}: {
  applicationNo: string;
  event: ConsoleEvent;
  status: CaseStatus;
  staff: StaffSummary[];
  /** The document types a request may name for this case (its form's list and "Other"). */
  requestableDocuments: readonly { value: string; labelKey: string }[];
  /** The case's open information requests (an extension or a withdrawal names one). */
  openRequests: readonly { id: number; createdAt: string; replyBy: string }[];
  meId: number;
  today: string;
  /** What the officer had typed when the case moved under them: the form opens with it again. */
  kept?: ActionValues;
  /** A decision of two people: the form proposes it (docs/decisions/040-four-eyes-decisions.md). */
  propose?: boolean;
  /**
   * The action's record, or null when the case moved: then `moved` holds the server's words (who changed
   * it, what it is now) and what the officer typed, which the page keeps (docs/console.md).
   */
  onDone: (result: ConsoleActionResult | null, moved?: { message: string; values: ActionValues }) => void;
}) {
  const { t, i18n } = useTranslation('console');
  const definition = ACTION_FORMS[event];
  const fields = fieldsOf(definition).map((p) => p.field);
  const [values, setValues] = useState<ActionValues>(
    () => kept ?? initialValues(definition, { today, me: meId, openRequests: openRequests.map((r) => r.id) }),
  );
  const [snapshot, send] = useMachine(
    consoleActionMachine.provide({
      actors: {
        submitAction: fromPromise<ConsoleActionOutcome, { answers: Record<string, unknown> }>(({ input }) =>
          consoleApi.post<ConsoleActionResult>(
            `cases/${encodeURIComponent(applicationNo)}/${propose ? 'proposals' : 'actions'}/${event}`,
            {
              expectedStatus: status,
              answers: input.answers,
            },
          ),
        ),
      },
    }),
  );
  const confirming = snapshot.matches('confirming') || snapshot.matches('sending');
  const busy = snapshot.matches('sending');
  const failure = snapshot.context.failure;
  const error = useRefusal(failure);
  useEffect(() => {
    // The request provided below answers a case action's record.
    if (snapshot.matches('done')) onDone(snapshot.context.result as ConsoleActionResult | null);
    if (snapshot.matches('moved'))
      onDone(null, { message: snapshot.context.failure?.message || t('errors.network'), values });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per final state
  }, [snapshot.value]);
  const titleId = `${eventKey(event)}-title`;
  // The API's messages by the path of the answer: a table's cells ('answers.minorWorks.0.item') at the
  // cell ('0.item'), any other part of an answer (an item of a list) at its field.
  const fieldError = (field: Field) =>
    error?.fields.find(
      (f) =>
        f.path === `answers.${field.id}` ||
        (field.kind !== 'table' && f.path.startsWith(`answers.${field.id}.`)),
    )?.message ?? null;
  const cellErrors = (field: Field) => {
    if (field.kind !== 'table' || !error) return undefined;
    const cells: Record<string, string> = {};
    for (const f of error.fields)
      if (f.path.startsWith(`answers.${field.id}.`))
        cells[f.path.slice(`answers.${field.id}.`.length)] ??= f.message;
    return cells;
  };
  const title = t(`events.${eventKey(event)}`);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(
      confirming
        ? { type: 'action.confirm', answers: answersOf(definition, values) }
        : { type: 'action.continue' },
    );
  };

  const officers = staff.map((s) => ({
    value: String(s.id),
    label: i18n.language === 'en' ? s.nameEn : s.nameZh,
  }));
  const documentChoices = requestableDocuments.map((d) => ({
    value: d.value,
    label: t(`forms:${d.labelKey}`),
  }));
  const requestChoices = openRequests.map((r) => ({
    value: String(r.id),
    label: t('case.requestChoice', {
      date: formatDate(r.createdAt, i18n.language),
      replyBy: formatDate(r.replyBy, i18n.language),
    }),
  }));
  // A field whose condition does not hold is not shown (the description of "Other" until Other is ticked).
  const shown = applicableFieldIds(definition, values);

  return (
    <Form className="console__action" validationBehavior="aria" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{confirming ? t('case.confirm', { action: title }) : title}</h3>
      <ProblemSummary error={error} />
      {confirming && <p>{t('case.confirmText')}</p>}
      {confirming && WARNED.has(event) && (
        <p className="console__warning" role="note">
          {t(`case.confirmWarning.${eventKey(event)}`)}
        </p>
      )}
      <fieldset disabled={confirming || busy} className="console__fieldset">
        <legend className="visually-hidden">{title}</legend>
        {fields
          .filter((field) => shown.has(field.id))
          .map((field) => (
            <FieldRenderer
              key={field.id}
              field={field}
              value={values[field.id]}
              error={fieldError(field)}
              partErrors={cellErrors(field)}
              onChange={(value) => setValues((s) => ({ ...s, [field.id]: value }))}
              choices={
                field.kind === 'officer'
                  ? officers
                  : field.kind === 'checkboxes'
                    ? documentChoices
                    : field.kind === 'openRequest'
                      ? requestChoices
                      : undefined
              }
            />
          ))}
      </fieldset>
      <div className="console__buttons">
        {confirming && (
          <button type="button" className="button" onClick={() => send({ type: 'action.back' })}>
            {t('case.backButton')}
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {confirming ? t('case.confirmButton') : t('case.continue')}
        </button>
      </div>
    </Form>
  );
}
