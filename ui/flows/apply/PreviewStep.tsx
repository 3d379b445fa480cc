import { useCallback, useEffect, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { answerText, applicableFieldIds } from '../../../machines/forms';
import { cellText } from '../../../machines/forms/answer-text';
import type { Field, FormDefinition, TableRow } from '../../../machines/forms/types';
import { isLanguage } from '../../../machines/rules/language';
import { CONTACT_FIELDS, partiesToConfirm, unconfirmedParties } from '../../../machines/rules/contacts';
import type { VerifiedContacts } from '../../../machines/rules/drafts';
import type { ApplyActor } from './apply-store';
import { VerifyContact } from './VerifyContact';
import { PdfViewer } from '../../components/PdfViewer';
import { useApplicationPdf } from './application-pdf';

/**
 * The application form PDF inside the preview (spec §2 "PDF view"): opened and closed here, drawn by
 * pdf.js, with its download link; closing it returns focus to the button that opened it.
 */
function PdfPanel({ applicationNo }: { applicationNo: string }) {
  const { t, i18n } = useTranslation(['wizard', 'common']);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const closer = useRef<HTMLButtonElement>(null);
  const toggled = useRef(false);
  // Focus follows the toggle: to Close when the form opens, back to View when it closes.
  useEffect(() => {
    if (!toggled.current) return;
    (open ? closer : opener).current?.focus();
  }, [open]);
  const toggle = (next: boolean) => {
    toggled.current = true;
    setOpen(next);
  };
  const pdf = useApplicationPdf(applicationNo, i18n.language, open);
  return (
    <div className="preview__pdf">
      {open ? (
        <section className="pdf-panel" aria-labelledby="pdf-panel-title">
          <div className="preview__head">
            <h2 id="pdf-panel-title">{t('common:pdf.viewer')}</h2>
            <Button ref={closer} className="button" onPress={() => toggle(false)}>
              {t('wizard:preview.pdfClose')}
            </Button>
          </div>
          {pdf.kind === 'loading' ? <p role="status">{t('common:pdf.loading')}</p> : null}
          {pdf.kind === 'failed' ? <p role="alert">{t('common:pdf.failed')}</p> : null}
          {pdf.kind === 'ready' ? (
            <>
              <p>
                <a href={pdf.url} download={`${applicationNo}.pdf`}>
                  {t('common:pdf.download')}
                </a>
              </p>
              <PdfViewer data={pdf.blob} label={t('common:pdf.viewer')} />
            </>
          ) : null}
        </section>
      ) : (
        <Button ref={opener} className="button" onPress={() => toggle(true)}>
          {t('wizard:preview.pdf')}
        </Button>
      )}
    </div>
  );
}

/** An answer as the preview (and the PDF) prints it: machines/forms/answer-text.ts. */
export function AnswerText({ field, value }: { field: Field; value: unknown }) {
  const { t, i18n } = useTranslation(['forms', 'wizard']);
  if (field.kind === 'table' && Array.isArray(value) && value.length > 0) {
    return <AnswerTable field={field} rows={value as TableRow[]} />;
  }
  const lines = answerText(field, value, (key) => t(key), isLanguage(i18n.language) ? i18n.language : 'en');
  if (!lines) return <span className="preview__empty">{t('wizard:notAnswered')}</span>;
  return (
    <>
      {lines.map((line, i) => (
        <span key={i} className="preview__line" lang={line.chinese ? 'zh-Hant' : undefined}>
          {line.text}
        </span>
      ))}
    </>
  );
}

/** A table answer printed as a table: a header of its columns, a line a row (the minor works table). */
function AnswerTable({ field, rows }: { field: Extract<Field, { kind: 'table' }>; rows: TableRow[] }) {
  const { t } = useTranslation(['forms', 'wizard']);
  return (
    <div className="table-wrap">
      <table className="table preview__table">
        <thead>
          <tr>
            {field.columns.map((c) => (
              <th key={c.id} scope="col">
                {t(c.labelKey)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {field.columns.map((c) => (
                <td key={c.id}>{cellText(c, row[c.id], (key) => t(key))}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The Application Form Preview: every answer by section, with Change links back to its step. */
export function PreviewStep({
  actor,
  definition,
  answers,
}: {
  actor: ApplyActor;
  definition: FormDefinition;
  answers: Record<string, unknown>;
}) {
  const { t } = useTranslation(['forms', 'wizard']);
  const applicable = applicableFieldIds(definition, answers);
  const applicationNo = useSelector(actor, (s) => s.context.applicationNo);
  const contactError = useSelector(actor, (s) => s.context.showContactError);
  const [verified, setVerified] = useState<VerifiedContacts>({});
  const onVerified = useCallback(
    (found: VerifiedContacts) => {
      setVerified(found);
      actor.send({ type: 'contact.verified', verified: unconfirmedParties(answers, found).length === 0 });
    },
    [actor, answers],
  );
  const unconfirmed = unconfirmedParties(answers, verified);
  const text = (id: string) => (typeof answers[id] === 'string' ? answers[id].trim() : '');
  return (
    <>
      <p>{t('wizard:preview.intro')}</p>
      {applicationNo ? <PdfPanel applicationNo={applicationNo} /> : null}
      {definition.steps.map((step, index) =>
        step.kind !== 'fill'
          ? null
          : step.sections.map((section) => {
              const fields = section.fields.filter((f) => applicable.has(f.id));
              if (fields.length === 0) return null;
              const title = t(section.titleKey);
              return (
                <section key={section.id} className="preview" aria-labelledby={`preview-${section.id}`}>
                  <div className="preview__head">
                    <h2 id={`preview-${section.id}`}>{title}</h2>
                    <Button
                      className="button button--link"
                      aria-label={t('wizard:changeLabel', { field: title })}
                      onPress={() => actor.send({ type: 'preview.change', step: index + 1 })}
                    >
                      {t('wizard:change')}
                    </Button>
                  </div>
                  <dl className="preview__list">
                    {fields.map((field) => (
                      <div key={field.id} className="preview__row">
                        <dt>{t(field.labelKey)}</dt>
                        <dd>
                          <AnswerText field={field} value={answers[field.id]} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                </section>
              );
            }),
      )}
      {applicationNo ? (
        <VerifyContact
          applicationNo={applicationNo}
          email={text(CONTACT_FIELDS.email)}
          mobile={text(CONTACT_FIELDS.mobile)}
          onVerified={onVerified}
          error={
            contactError && unconfirmed.includes('applicant')
              ? t('wizard:preview.contactRequired')
              : undefined
          }
        />
      ) : null}
      {applicationNo && partiesToConfirm(answers).includes('contactPerson') ? (
        <VerifyContact
          applicationNo={applicationNo}
          party="contactPerson"
          email={text(CONTACT_FIELDS.contactPersonEmail)}
          mobile={text(CONTACT_FIELDS.contactPersonMobile)}
          onVerified={onVerified}
          error={
            contactError && unconfirmed.includes('contactPerson')
              ? t('wizard:preview.contactPersonRequired')
              : undefined
          }
        />
      ) : null}
      <div className="form__actions">
        <Button className="button" onPress={() => actor.send({ type: 'step.back' })}>
          {t('wizard:back')}
        </Button>
        <Button className="button button--primary" onPress={() => actor.send({ type: 'step.next' })}>
          {t('wizard:preview.confirm')}
        </Button>
      </div>
    </>
  );
}
