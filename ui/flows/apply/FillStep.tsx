import { useEffect, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { applicableFieldIds, fieldDomId } from '../../../machines/forms';
import type { FormDefinition } from '../../../machines/forms/types';
import { ErrorSummary, focusField, useRefusalCount } from '../../components/ErrorSummary';
import { FieldSections } from './FieldSections';
import { SaveForLaterButton } from './SaveForLater';
import { issueMessage, stepIssues, takeFocusOnArrival, type ApplyActor } from './apply-store';
import type { FormIssue } from '../../../machines/forms';

interface Props {
  actor: ApplyActor;
  definition: FormDefinition;
  stepIndex: number;
  answers: Record<string, unknown>;
  /** The machine refused `step.next`: show this step's errors. */
  showErrors: boolean;
  /** The API's refusal on leaving a `serverCheck` step: field id -> message (docs/flows/apply.md). */
  serverErrors: Readonly<Record<string, string>>;
  /** The last autosave's refusal: answer path -> message, shown at the answer, not in the summary. */
  saveRefusals: Readonly<Record<string, string>>;
  /** The API is checking the step's case before the wizard moves on. */
  checking: boolean;
  canGoBack: boolean;
  isLastFill: boolean;
  /** The URL is this step's route (the wizard navigates after the machine moved). */
  atRoute: boolean;
  /** Fields the department issued (a self-certification's letter from its case): read only. */
  issuedFields?: ReadonlySet<string>;
}

/** A fill step: its sections and fields from the definition, the error summary and the actions. */
export function FillStep({
  actor,
  definition,
  stepIndex,
  answers,
  showErrors,
  serverErrors,
  saveRefusals,
  checking,
  canGoBack,
  isLastFill,
  atRoute,
  issuedFields,
}: Props) {
  const { t } = useTranslation(['forms', 'wizard']);
  const [attempt, setAttempt] = useState(0);
  const refusals = useRefusalCount(serverErrors);
  // Once the URL shows this step (the page heading takes focus then), a field asked for gets focus.
  useEffect(() => {
    if (!atRoute) return;
    const id = takeFocusOnArrival();
    if (!id) return;
    const frame = requestAnimationFrame(() => focusField(id));
    return () => cancelAnimationFrame(frame);
  }, [atRoute, stepIndex]);
  const step = definition.steps[stepIndex];
  if (step?.kind !== 'fill') return null;
  const applicable = applicableFieldIds(definition, answers);
  const issues = showErrors ? stepIssues(definition, stepIndex, answers) : [];
  // An issue about a part of a field (`['premisesAddress', 'zh']`) is shown at that part only, and one
  // about a cell of a table (`['minorWorks', 1, 'item']`) at that cell ('1.item').
  const partOf = (issue: Pick<FormIssue, 'path'>) =>
    issue.path.length > 1 && typeof issue.path[1] === 'string'
      ? issue.path[1]
      : issue.path.length > 2
        ? `${issue.path[1]}.${issue.path[2]}`
        : undefined;
  const depth = (issue: Pick<FormIssue, 'path'>) =>
    partOf(issue) === undefined ? 1 : typeof issue.path[1] === 'string' ? 2 : 3;
  // The form's own issues, then the API's refusals of this step's answers (the case, the certifier), each
  // as text at its place; then an autosave's refusal (`minorWorks.0.description` is a cell), at its place
  // only: it comes while the person types, so it takes no focus and is not in the summary.
  const onStep = new Set(step.sections.flatMap((s) => s.fields.map((f) => f.id)));
  const located = (errors: Readonly<Record<string, string>>) =>
    Object.entries(errors)
      .map(([key, message]) => {
        const path = key.split('.').map((p) => (/^[0-9]+$/.test(p) ? Number(p) : p));
        return { path, fieldId: String(path[0]), message };
      })
      .filter((r) => onStep.has(r.fieldId) && applicable.has(r.fieldId));
  const placed = [
    ...issues.map((issue) => ({ path: issue.path, fieldId: issue.fieldId, message: issueMessage(issue) })),
    ...located(serverErrors),
  ];
  const fieldErrors = new Map<string, string>();
  const partErrors = new Map<string, Record<string, string>>();
  for (const issue of [...placed, ...located(saveRefusals)]) {
    const part = partOf(issue);
    if (part === undefined) {
      if (!fieldErrors.has(issue.fieldId)) fieldErrors.set(issue.fieldId, issue.message);
      continue;
    }
    const parts = partErrors.get(issue.fieldId) ?? {};
    parts[part] ??= issue.message;
    partErrors.set(issue.fieldId, parts);
  }
  // Each problem once (ErrorSummary), each linked to its input.
  const summary = placed
    .map((issue) => ({ fieldId: fieldDomId(issue.path.slice(0, depth(issue))), message: issue.message }))
    .filter((entry, i, all) => all.findIndex((o) => o.fieldId === entry.fieldId) === i);

  return (
    <>
      <ErrorSummary title={t('wizard:errorTitle')} errors={summary} focusKey={`${attempt}-${refusals}`} />
      <div role="status" className={checking ? 'flow-busy' : undefined}>
        {checking ? t('wizard:checkingCase') : null}
      </div>
      <Form
        className="form form--wizard"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          setAttempt((a) => a + 1);
          actor.send({ type: 'step.next' });
        }}
      >
        {[...onStep].some((id) => issuedFields?.has(id)) ? <p>{t('wizard:letterIssued')}</p> : null}
        <FieldSections
          sections={step.sections}
          issued={issuedFields}
          applicable={applicable}
          answers={answers}
          errorOf={(id) => fieldErrors.get(id) ?? null}
          partErrorsOf={(id) => partErrors.get(id)}
          onChange={(id, value) => actor.send({ type: 'field.change', id, value })}
        />
        <div className="form__actions">
          {canGoBack ? (
            <Button className="button" onPress={() => actor.send({ type: 'step.back' })}>
              {t('wizard:back')}
            </Button>
          ) : null}
          <Button type="submit" className="button button--primary">
            {isLastFill ? t('wizard:toPreview') : t('wizard:next')}
          </Button>
          <SaveForLaterButton actor={actor} definition={definition} answers={answers} stepIndex={stepIndex} />
        </div>
      </Form>
    </>
  );
}
