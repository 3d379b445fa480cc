import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { CaseSummary as Summary, CaseUpload } from '../../../machines/flows/case-action.machine';
import { applicableFieldIds } from '../../../machines/forms';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { AnswerText } from '../apply/PreviewStep';
import { CaseSummary } from './CaseSummary';

interface Props {
  definition: FollowUpDefinition;
  answers: Record<string, unknown>;
  /** The files of the upload step (forms with one). */
  files?: readonly CaseUpload[];
  summary: Summary;
  /** Today in Hong Kong: the date of the request. */
  today: string;
  onBack: () => void;
  onSubmit: () => void;
  submitLabel: string;
}

/** The preview of a follow-up: the case, then every answer by section; change (back) or submit. */
export function FollowUpPreview({
  definition,
  answers,
  files = [],
  summary,
  today,
  onBack,
  onSubmit,
  submitLabel,
}: Props) {
  const { t } = useTranslation(['forms', 'case', 'wizard']);
  const applicable = applicableFieldIds(definition, answers);
  const fill = definition.steps.find((s) => s.kind === 'fill');
  return (
    <>
      <p className="lead">{t('case:preview.intro')}</p>
      <CaseSummary summary={summary} requestDate={today} />
      {fill?.kind === 'fill'
        ? fill.sections.map((section) => {
            const fields = section.fields.filter((f) => applicable.has(f.id));
            if (fields.length === 0) return null;
            return (
              <section key={section.id} className="preview" aria-labelledby={`preview-${section.id}`}>
                <div className="preview__head">
                  <h2 id={`preview-${section.id}`}>{t(section.titleKey)}</h2>
                </div>
                <dl className="preview__list">
                  {fields.map((field) => (
                    <div key={field.id} className="preview__row">
                      <dt>{t(field.labelKey, { applicationNo: summary.applicationNo })}</dt>
                      <dd>
                        <AnswerText field={field} value={answers[field.id]} />
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            );
          })
        : null}
      {files.length > 0 ? (
        <section className="preview" aria-labelledby="preview-files">
          <div className="preview__head">
            <h2 id="preview-files">{t('case:preview.files')}</h2>
          </div>
          <ol className="plain-list">
            {files.map((f) => (
              <li key={f.id}>{f.fileName}</li>
            ))}
          </ol>
        </section>
      ) : null}
      <div className="form__actions">
        <Button className="button" onPress={onBack}>
          {t('case:change')}
        </Button>
        <Button className="button button--primary" onPress={onSubmit}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
