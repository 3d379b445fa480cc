import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CaseHistoryRowData } from '../../../machines/rules/case';
import { casesApi } from '../../api/cases';
import { formatDate } from '../../components/format';
import { Spinner } from '../../components/Spinner';
import { DocumentLink } from './DocumentLink';

/** What the form's step 1 hands to Upload Success. */
export interface UploadDone {
  applicationNo: string;
  reference: string;
}

/**
 * Step 2 of Submit Supporting Document: Upload Success, with the reference and each document submitted,
 * downloadable (for 7 days) as in the case history, whose row it is.
 */
export function UploadSuccess({ done }: { done: UploadDone }) {
  const { t, i18n } = useTranslation(['case', 'auth']);
  const [row, setRow] = useState<CaseHistoryRowData | null | 'failed'>(null);
  useEffect(() => {
    let live = true;
    casesApi
      .current({ quiet: true })
      .then((found) => live && setRow(found.history.find((h) => h.reference === done.reference) ?? 'failed'))
      .catch(() => live && setRow('failed'));
    return () => {
      live = false;
    };
  }, [done]);

  const until = row && row !== 'failed' ? row.documents.find((d) => d.downloadUntil)?.downloadUntil : null;
  return (
    <>
      <div className="notice notice--success" role="status">
        <p>{t('case:done.submitDocument', { applicationNo: done.applicationNo })}</p>
        <p>
          {t('case:done.reference')} <strong>{done.reference}</strong>
        </p>
      </div>
      <section aria-labelledby="upload-success-list">
        <h2 id="upload-success-list">{t('case:upload.listTitle')}</h2>
        {row === null ? <Spinner /> : null}
        {row === 'failed' ? <p>{t('case:upload.listFailed')}</p> : null}
        {row && row !== 'failed' ? (
          <>
            {row.revision ? <p>{t('case:page.revision', { revision: row.revision })}</p> : null}
            <ul className="plain-list">
              {row.documents.map((d) => (
                <li key={d.id}>
                  <DocumentLink document={d} applicationNo={done.applicationNo} named />
                </li>
              ))}
            </ul>
            {until ? (
              <p className="muted">
                {t('case:upload.until', { date: formatDate(until, i18n.language, true) })}
              </p>
            ) : null}
          </>
        ) : null}
      </section>
      <p className="form__actions">
        <Link className="button button--primary" to="/case-history">
          {t('case:toCase')}
        </Link>
      </p>
    </>
  );
}
