import { useEffect, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { applicableFieldIds, fieldDomId } from '../../../machines/forms';
import type { FormDefinition } from '../../../machines/forms/types';
import { ErrorSummary, focusField } from '../../components/ErrorSummary';
import { FieldSections } from './FieldSections';
import { issueMessage, stepIssues, takeFocusOnArrival, type ApplyActor } from './apply-store';
import type { FormIssue } from '../../../machines/forms';

interface Props {
  actor: ApplyActor;
  definition: FormDefinition;
  stepIndex: number;
  answers: Record<string, unknown>;
  /** The machine refused `step.next`: show this step's errors. */
  showErrors: boolean;
  canGoBack: boolean;
  isLastFill: boolean;
  /** The URL is this step's route (the wizard navigates after the machine moved). */
  atRoute: boolean;
}

/** A fill step: its sections and fields from the definition, the error summary and the actions. */
export function FillStep({
  actor,
  definition,
  stepIndex,
  answers,
  showErrors,
  canGoBack,
  isLastFill,
  atRoute,
}: Props) {
  const { t } = useTranslation(['forms', 'wizard']);
  const [attempt, setAttempt] = useState(0);
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
  const partOf = (issue: FormIssue) =>
    issue.path.length > 1 && typeof issue.path[1] === 'string'
      ? issue.path[1]
      : issue.path.length > 2
        ? `${issue.path[1]}.${issue.path[2]}`
        : undefined;
  const depth = (issue: FormIssue) =>
    partOf(issue) === undefined ? 1 : typeof issue.path[1] === 'string' ? 2 : 3;
  const fieldErrors = new Map<string, string>();
  const partErrors = new Map<string, Record<string, string>>();
  for (const issue of issues) {
    const part = partOf(issue);
    if (part === undefined) {
      if (!fieldErrors.has(issue.fieldId)) fieldErrors.set(issue.fieldId, issueMessage(issue));
      continue;
    }
    const parts = partErrors.get(issue.fieldId) ?? {};
    parts[part] ??= issueMessage(issue);
    partErrors.set(issue.fieldId, parts);
  }
  const summary = issues
    .map((issue) => ({
      fieldId: fieldDomId(issue.path.slice(0, depth(issue))),
      message: issueMessage(issue),
    }))
    .filter((entry, i, all) => all.findIndex((o) => o.fieldId === entry.fieldId) === i);

  return (
    <>
      <ErrorSummary
        title={t('wizard:errorTitle')}
        errors={summary}
        focusKey={`${attempt}-${summary.length}`}
      />
      <Form
        className="form form--wizard"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          setAttempt((a) => a + 1);
          actor.send({ type: 'step.next' });
        }}
      >
        <FieldSections
          sections={step.sections}
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
          <Button className="button" onPress={() => actor.send({ type: 'draft.save' })}>
            {t('wizard:saveForLater')}
          </Button>
        </div>
      </Form>
    </>
  );
}
