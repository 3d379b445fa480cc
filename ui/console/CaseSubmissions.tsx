import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleCaseData } from '../../machines/rules/staff';
import type { WrittenText } from '../../machines/rules/staff-words';
import { HTML_LANG, isLanguage } from '../../machines/rules/language';
import { formatDate } from '../components/format';
import { useConsoleTime } from './time';
import { DocumentFacts, DocumentReview } from './DocumentReview';

type Row = ConsoleCaseData['history'][number];
type Doc = ConsoleCaseData['documents'][number];

const DATE_FIELDS = new Set(['preferredDate1', 'preferredDate2', 'preferredDate3']);

/**
 * The `lang` of a party's text on this page (docs/decisions/037-applicant-words-in-console.md): the text's
 * own language as the API tells it from its characters, set only when it is not the page's, so that a
 * screen reader reads Chinese words on an English page (or English on a Chinese one) in their language.
 */
export function langOf(textLang: string | null, pageLanguage: string): string | undefined {
  const page = isLanguage(pageLanguage) ? HTML_LANG[pageLanguage] : pageLanguage;
  return textLang && textLang !== page ? textLang : undefined;
}

/**
 * The case's submissions and follow-ups, each with what the applicant, AP or RSE wrote with it (as written,
 * never translated: who, when, each text under its question) and the documents that came with it, each by
 * its type's name in the officer's language with the file name second. A heading per submission and a
 * description list per text, so that a screen reader moves from one to the next.
 */
export function CaseSubmissions({
  data,
  docUrl,
  applicationNo,
  onReviewed,
}: {
  data: ConsoleCaseData;
  docUrl: (id: number, download?: boolean) => string;
  applicationNo: string;
  /** A document's review was saved or refused: the page loads the case again. */
  onReviewed: () => void;
}) {
  const { t, i18n } = useTranslation(['console', 'auth', 'forms']);
  const time = useConsoleTime();
  const lang = (l: string | null) => langOf(l, i18n.language);
  const code = (group: string, value: string) => t(`auth:history.${group}.${value}`, { defaultValue: value });
  const rows = [...data.history]
    .filter((h) => h.words || data.documents.some((d) => d.historyId === h.id))
    .reverse();
  const known = new Set(rows.map((h) => h.id));
  const loose = data.documents.filter((d) => d.historyId === null || !known.has(d.historyId));

  const descriptionOf = (d: Doc, row: Row | undefined) =>
    d.kind === 'other' ? row?.words?.texts.find((w) => w.field === 'description') : undefined;
  /** The type's name as text: the applicant's description of an "Other" document. */
  const typeText = (d: Doc, row: Row | undefined) =>
    descriptionOf(d, row)?.text ??
    (d.typeKey === null
      ? t('case.words.applicationForm')
      : t(`forms:${d.typeKey}`, { defaultValue: d.kind }));
  const typeName = (d: Doc, row: Row | undefined) => {
    const description = descriptionOf(d, row);
    if (description) return <span lang={lang(description.lang)}>{description.text}</span>;
    return typeText(d, row);
  };
  const rowOf = (d: Doc) => data.history.find((h) => h.id === d.historyId);
  const nameOf = (d: Doc) => `${typeText(d, rowOf(d))} (${d.fileName})`;

  const documentList = (docs: Doc[], row: Row | undefined) => (
    <ul className="console__documents">
      {docs.map((d) => (
        <li key={d.id}>
          <strong>{typeName(d, row)}</strong>{' '}
          <span className="console__secondary">{t('case.words.file', { name: d.fileName })}</span>{' '}
          <a href={docUrl(d.id)} target="_blank" rel="noreferrer">
            {t('case.view', { name: d.fileName })}
          </a>{' '}
          <a href={docUrl(d.id, true)} download>
            {t('case.download', { name: d.fileName })}
          </a>
          <DocumentFacts
            document={d}
            by={row ? code('submittedBy', row.words?.by ?? row.submittedBy) : null}
            at={time(d.createdAt)}
          />
          <DocumentReview
            applicationNo={applicationNo}
            documentId={d.id}
            name={nameOf(d)}
            review={d.review}
            replacedByName={(() => {
              const by = data.documents.find((o) => o.id === d.review?.replacedBy);
              return by ? nameOf(by) : null;
            })()}
            replacesAnother={data.documents.some((o) => o.review?.replacedBy === d.id)}
            mayReview={data.mayReview}
            onReviewed={onReviewed}
          />
        </li>
      ))}
    </ul>
  );

  const text = (w: WrittenText) => (DATE_FIELDS.has(w.field) ? formatDate(w.text, i18n.language) : w.text);

  return (
    <section aria-labelledby="case-submissions-title">
      <h2 id="case-submissions-title">{t('case.words.title')}</h2>
      {rows.length === 0 && loose.length === 0 && <p>{t('case.noDocuments')}</p>}
      {rows.map((h) => {
        const docs = data.documents.filter((d) => d.historyId === h.id);
        const id = `submission-${h.id}`;
        return (
          <section key={h.id} aria-labelledby={id} className="console__submission">
            <h3 id={id}>
              {t('case.words.heading', {
                type: code('documentTypes', h.documentType),
                reference: h.reference ?? '',
              })}
            </h3>
            <dl className="console__summary">
              <dt>{t('case.words.by')}</dt>
              <dd>{code('submittedBy', h.words?.by ?? h.submittedBy)}</dd>
              <dt>{t('case.words.at')}</dt>
              <dd>{time(h.words?.at ?? h.date)}</dd>
              {h.revision && (
                <>
                  <dt>{t('case.words.fields.revision')}</dt>
                  <dd>{h.revision}</dd>
                </>
              )}
              {h.words?.texts
                .filter((w) => w.field !== 'revision')
                .map((w) => (
                  <Fragment key={w.field}>
                    <dt>{t(`case.words.fields.${w.field}`)}</dt>
                    <dd
                      className="console__written"
                      lang={DATE_FIELDS.has(w.field) ? undefined : lang(w.lang)}
                    >
                      {text(w)}
                    </dd>
                  </Fragment>
                ))}
            </dl>
            {docs.length > 0 && (
              <>
                <h4>{t('case.words.documents')}</h4>
                {documentList(docs, h)}
              </>
            )}
          </section>
        );
      })}
      {loose.length > 0 && (
        <section aria-labelledby="submission-other" className="console__submission">
          <h3 id="submission-other">{t('case.words.otherDocuments')}</h3>
          {documentList(loose, undefined)}
        </section>
      )}
    </section>
  );
}
