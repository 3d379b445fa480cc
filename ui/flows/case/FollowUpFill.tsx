import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { CaseCalendar } from '../../../machines/flows/case-action.machine';
import { applicableFieldIds, fieldDomId, issueText, toFormIssues } from '../../../machines/forms';
import { followUpSchema } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import type { AnswerValue } from '../../../machines/forms/types';
import { ErrorSummary, useRefusalCount } from '../../components/ErrorSummary';
import { FieldSections } from '../apply/FieldSections';

interface Props {
  definition: FollowUpDefinition;
  answers: Record<string, unknown>;
  calendar: CaseCalendar;
  /** The case's information the form was opened on (an update form refuses no change against it). */
  base?: Record<string, unknown> | undefined;
  applicationNo: string;
  /** The machine refused `step.next` (or the API answered field errors): show the errors. */
  showErrors: boolean;
  /** Field errors the API answered, by field id, already in the page's language. */
  serverErrors: Record<string, string>;
  onChange: (field: string, value: AnswerValue) => void;
  onNext: () => void;
  /** The label of the button that goes on (Continue, or the action itself when there is no preview). */
  nextLabel: string;
}

/** The fill step of a follow-up form: its sections and fields from the definition, with the error summary. */
export function FollowUpFill(props: Props) {
  const { definition, answers, calendar, showErrors, serverErrors } = props;
  const { t, i18n } = useTranslation(['forms', 'wizard', 'case']);
  const [attempt, setAttempt] = useState(0);
  const refusals = useRefusalCount(serverErrors);
  const fill = definition.steps.find((s) => s.kind === 'fill');
  if (fill?.kind !== 'fill') return null;
  const applicable = applicableFieldIds(definition, answers);
  const errors = new Map<string, string>();
  if (showErrors) {
    const parsed = followUpSchema(definition, {
      today: calendar.today,
      holidays: new Set(calendar.holidays),
      ...(props.base ? { base: props.base } : {}),
    }).safeParse(answers);
    if (!parsed.success)
      for (const issue of toFormIssues(parsed.error))
        if (!errors.has(issue.fieldId)) errors.set(issue.fieldId, issueText(issue, t, i18n.language));
    for (const [field, message] of Object.entries(serverErrors))
      if (!errors.has(field)) errors.set(field, message);
  }
  const summary = [...errors].map(([field, message]) => ({ fieldId: fieldDomId([field]), message }));

  return (
    <>
      <ErrorSummary
        title={t('wizard:errorTitle')}
        errors={summary}
        focusKey={`${attempt}-${refusals}`}
      />
      <Form
        className="form form--wizard"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          setAttempt((a) => a + 1);
          props.onNext();
        }}
      >
        <FieldSections
          sections={fill.sections}
          applicable={applicable}
          answers={answers}
          errorOf={(id) => errors.get(id) ?? null}
          onChange={props.onChange}
          labelParams={{ applicationNo: props.applicationNo }}
        />
        <div className="form__actions">
          <Button type="submit" className="button button--primary">
            {props.nextLabel}
          </Button>
        </div>
      </Form>
    </>
  );
}
