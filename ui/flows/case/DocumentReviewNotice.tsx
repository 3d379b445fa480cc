import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CaseData, CaseDocumentData } from '../../../machines/rules/case';
import { formatDate } from '../../components/format';

/**
 * Next to a document the case officer asks to replace (docs/decisions/043-document-review.md): the
 * officer's reason as written, and a link to Submit Supporting Document with the document's type chosen
 * when the case allows it now; otherwise when it can be done. Once replaced, the date of the replacement.
 */
export function DocumentReviewNotice({
  document: d,
  name,
  data,
}: {
  document: CaseDocumentData;
  /** The document as the page names it. */
  name: string;
  data: CaseData;
}) {
  const { t, i18n } = useTranslation(['case', 'auth']);
  const review = d.review;
  if (!review) return null;
  const id = `review-notice-${d.id}`;
  const submit = data.actions.find((a) => a.key === 'submitDocument');
  const replacement = data.history.find((h) => h.documents.some((o) => o.id === review.replacedBy));
  return (
    <div className="notice" role="group" aria-labelledby={id}>
      <p id={id}>
        <strong>{t('case:review.needsReplacement')}</strong>
      </p>
      <p>
        {t('case:review.reason')} <span className="console__written">{review.reason}</span>
      </p>
      {replacement ? (
        <p>{t('case:review.replaced', { date: formatDate(replacement.date, i18n.language) })}</p>
      ) : submit?.allowed ? (
        <p>
          <Link to={`${submit.route}?type=${encodeURIComponent(d.kind)}`}>
            {t('case:review.replace', { name })}
          </Link>
        </p>
      ) : (
        <p>
          {t('case:review.later', {
            status: t(`auth:history.statuses.${data.status}`, { defaultValue: data.status }),
          })}
        </p>
      )}
    </div>
  );
}
