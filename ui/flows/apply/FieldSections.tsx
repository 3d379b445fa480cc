import { useTranslation } from 'react-i18next';
import type { AnswerValue, Section } from '../../../machines/forms/types';
import { FieldRenderer } from './FieldRenderer';

interface Props {
  sections: readonly Section[];
  /** The ids of the fields whose conditions hold (the others are neither shown nor validated). */
  applicable: ReadonlySet<string>;
  answers: Readonly<Record<string, unknown>>;
  /** A field's message, already in the page's language, or none. */
  errorOf: (fieldId: string) => string | null;
  /** The messages of an address field's parts. */
  partErrorsOf?: (fieldId: string) => Record<string, string> | undefined;
  onChange: (fieldId: string, value: AnswerValue) => void;
  /** Values of the labels' `{{name}}` placeholders. */
  labelParams?: Record<string, string>;
  /** Fields shown as issued by the department, read only (a self-certification's letter). */
  issued?: ReadonlySet<string>;
}

/**
 * The sections of a fill step with their fields, from the definition: the application wizard's and every
 * follow-up form's. A section none of whose fields applies is left out.
 */
export function FieldSections({
  sections,
  applicable,
  answers,
  errorOf,
  partErrorsOf,
  onChange,
  labelParams,
  issued,
}: Props) {
  const { t } = useTranslation(['forms']);
  return sections.map((section) => {
    const fields = section.fields.filter((f) => applicable.has(f.id));
    if (fields.length === 0) return null;
    return (
      <section key={section.id} className="form-section" aria-labelledby={`section-${section.id}`}>
        <h2 id={`section-${section.id}`}>{t(section.titleKey)}</h2>
        {section.introKey ? <p>{t(section.introKey)}</p> : null}
        <div className="field-grid">
          {fields.map((field) => (
            <div key={field.id} className={field.half ? 'field-cell field-cell--half' : 'field-cell'}>
              <FieldRenderer
                field={field}
                value={answers[field.id] as AnswerValue | undefined}
                error={errorOf(field.id)}
                partErrors={partErrorsOf?.(field.id)}
                onChange={(value) => onChange(field.id, value)}
                labelParams={labelParams}
                issued={issued?.has(field.id) === true}
              />
            </div>
          ))}
        </div>
      </section>
    );
  });
}
