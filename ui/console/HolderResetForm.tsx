import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { consoleActionMachine, type ConsoleActionOutcome } from '../../machines/flows/console-action.machine';
import type { HolderResetResult } from '../../machines/rules/staff-holders';
import { consoleApi, type ConsoleApiError } from './api';
import { useRefusal } from './use-refusal';
import { FieldInput, ProblemSummary } from './fields';

/**
 * The reset of a registration holder (docs/console.md, "Registered AP/RSE"), as every console action
 * goes (machines/flows/console-action.machine.ts): the reason, a confirmation that warns what happens,
 * the request, then the record. A 409 (the holder was reset or changed meanwhile) ends in `moved`, and the
 * page looks the number up again; any other refusal comes back to the form with its message.
 */
export function HolderResetForm({
  registrationNumber,
  holderId,
  holderName,
  cases,
  onDone,
}: {
  registrationNumber: string;
  holderId: number;
  holderName: string;
  cases: number;
  /**
   * After the reset (null) or a 409 (the refusal: the holder was reset or changed meanwhile): the page
   * looks the number up again and says which.
   */
  onDone: (refusal: ConsoleApiError | null) => Promise<void>;
}) {
  const { t } = useTranslation('console');
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [snapshot, send] = useMachine(
    consoleActionMachine.provide({
      actors: {
        submitAction: fromPromise<ConsoleActionOutcome, { answers: Record<string, unknown> }>(({ input }) =>
          consoleApi.post<HolderResetResult>('holders/reset', {
            registrationNumber,
            holderId,
            reason: input.answers.reason,
          }),
        ),
      },
    }),
  );
  const confirming = snapshot.matches('confirming') || snapshot.matches('sending');
  const busy = snapshot.matches('sending');
  const failure = snapshot.context.failure;
  const error = useRefusal(failure);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (snapshot.matches('confirming')) confirmRef.current?.focus();
    if (snapshot.matches('done')) void onDone(null);
    if (snapshot.matches('moved')) void onDone(error);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per state
  }, [snapshot.value]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (confirming) {
      send({ type: 'action.confirm', answers: { reason } });
      return;
    }
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    send({ type: 'action.continue' });
  };
  const reasonError = missing
    ? t('holdersPage.reset.reasonRequired')
    : error?.fields.find((f) => f.path === 'reason')?.message;

  return (
    <form className="console__action" onSubmit={submit} aria-labelledby="holder-reset-title" noValidate>
      <h3 id="holder-reset-title" tabIndex={-1} ref={confirmRef}>
        {confirming
          ? t('holdersPage.reset.confirmTitle', { number: registrationNumber })
          : t('holdersPage.reset.title')}
      </h3>
      <ProblemSummary error={error} />
      {confirming ? (
        <p className="console__warning" role="note">
          {t('holdersPage.reset.warning', { name: holderName, cases })}
        </p>
      ) : (
        <p>{t('holdersPage.reset.text')}</p>
      )}
      <fieldset disabled={confirming || busy} className="console__fieldset">
        <legend className="visually-hidden">{t('holdersPage.reset.title')}</legend>
        <FieldInput
          id="holder-reset-reason"
          label={t('holdersPage.reset.reason')}
          hint={t('holdersPage.reset.reasonHint')}
          error={reasonError}
          value={reason}
          onChange={setReason}
          multiline
        />
      </fieldset>
      <div className="console__buttons">
        {confirming && (
          <button type="button" className="button" onClick={() => send({ type: 'action.back' })}>
            {t('case.backButton')}
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {confirming ? t('holdersPage.reset.confirmButton') : t('case.continue')}
        </button>
      </div>
    </form>
  );
}
