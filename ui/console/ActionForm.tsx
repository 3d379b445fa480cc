import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { consoleActionMachine } from '../../machines/flows/console-action.machine';
import { useTranslation } from 'react-i18next';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import {
  eventKey,
  type ConsoleActionResult,
  type ConsoleEvent,
  type StaffSummary,
} from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import {
  ACTION_FORMS,
  answersOf,
  initialValues,
  type ActionValues,
  type MinorWorksRow,
} from './action-forms';
import { FieldInput, FieldSelect, ProblemSummary } from './fields';

/**
 * One action of the lifecycle on a case: its form, a confirmation, then the record (or the problem, in
 * the page language), as the machine machines/flows/console-action.machine.ts goes. The API decides; a
 * 409 tells that the case moved and the page reloads it.
 */
export function ActionForm({
  applicationNo,
  event,
  status,
  staff,
  meId,
  today,
  onDone,
}: {
  applicationNo: string;
  event: ConsoleEvent;
  status: CaseStatus;
  staff: StaffSummary[];
  meId: number;
  today: string;
  onDone: (result: ConsoleActionResult | null) => void;
}) {
  const { t, i18n } = useTranslation('console');
  const fields = ACTION_FORMS[event];
  const [values, setValues] = useState<ActionValues>(() => initialValues(fields, meId, today));
  const [snapshot, send] = useMachine(
    consoleActionMachine.provide({
      actors: {
        submitAction: fromPromise<ConsoleActionResult, { answers: Record<string, unknown> }>(({ input }) =>
          consoleApi.post<ConsoleActionResult>(
            `cases/${encodeURIComponent(applicationNo)}/actions/${event}`,
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
  const error = failure
    ? new ConsoleApiError(
        failure.status,
        failure.code,
        failure.message || t('errors.network'),
        failure.fields,
      )
    : null;
  useEffect(() => {
    if (snapshot.matches('done')) onDone(snapshot.context.result);
    if (snapshot.matches('moved')) onDone(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per final state
  }, [snapshot.value]);
  const id = (name: string) => `${eventKey(event)}-${name}`;
  const fieldError = (name: string) =>
    error?.fields.find((f) => f.path === `answers.${name}` || f.path.startsWith(`answers.${name}.`))?.message;
  const set = (name: string) => (v: string | MinorWorksRow[]) => setValues((s) => ({ ...s, [name]: v }));
  const title = t(`events.${eventKey(event)}`);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(
      confirming
        ? { type: 'action.confirm', answers: answersOf(fields, values) }
        : { type: 'action.continue' },
    );
  };

  const rows = (values.minorWorks ?? []) as MinorWorksRow[];
  const officers = staff.map((s) => ({
    value: String(s.id),
    label: i18n.language === 'en' ? s.nameEn : s.nameZh,
  }));

  return (
    <form className="console__action" onSubmit={submit} aria-labelledby={id('title')} noValidate>
      <h3 id={id('title')}>{confirming ? t('case.confirm', { action: title }) : title}</h3>
      <ProblemSummary error={error} />
      {confirming && <p>{t('case.confirmText')}</p>}
      <fieldset disabled={confirming || busy} className="console__fieldset">
        <legend className="visually-hidden">{title}</legend>
        {fields.map((f) => {
          const value = values[f.name];
          if (f.kind === 'officer' || f.kind === 'choice')
            return (
              <FieldSelect
                key={f.name}
                id={id(f.name)}
                label={t(`fields.${f.name}`)}
                value={typeof value === 'string' ? value : ''}
                error={fieldError(f.name)}
                onChange={set(f.name)}
                options={
                  f.kind === 'officer'
                    ? officers
                    : f.options.map((o) => ({ value: o, label: t(`fields.${o}`) }))
                }
              />
            );
          if (f.kind === 'minorWorks')
            return (
              <fieldset key={f.name} className="console__rows">
                <legend>{t('fields.minorWorks')}</legend>
                {rows.map((row, i) => (
                  <fieldset key={i} className="console__row">
                    <legend>{t('fields.row', { n: i + 1 })}</legend>
                    {(['item', 'description', 'submissionNo'] as const).map((k) => (
                      <FieldInput
                        key={k}
                        id={id(`mw${i}-${k}`)}
                        label={t(`fields.${k}`)}
                        error={error?.fields.find((x) => x.path === `answers.minorWorks.${i}.${k}`)?.message}
                        value={row[k]}
                        onChange={(v) =>
                          set('minorWorks')(rows.map((r, j) => (j === i ? { ...r, [k]: v } : r)))
                        }
                      />
                    ))}
                    <button
                      type="button"
                      className="button"
                      onClick={() => set('minorWorks')(rows.filter((_, j) => j !== i))}
                    >
                      {t('fields.removeRow', { n: i + 1 })}
                    </button>
                  </fieldset>
                ))}
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    set('minorWorks')([...rows, { item: '', description: '', submissionNo: '' }])
                  }
                >
                  {t('fields.addRow')}
                </button>
              </fieldset>
            );
          return (
            <FieldInput
              key={f.name}
              id={id(f.name)}
              label={t(`fields.${f.name}`)}
              error={fieldError(f.name)}
              value={typeof value === 'string' ? value : ''}
              multiline={f.kind === 'textarea' || f.kind === 'lines'}
              onChange={set(f.name)}
            />
          );
        })}
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
    </form>
  );
}
