import { useCallback, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { api, ApiError } from '../../api';
import { formatDate } from '../../components/format';
import { draftAuth } from './documents-api';
import type {
  SubmissionDetailsData,
  SubmissionLinksData,
  SubmittedFileData,
} from '../../../machines/rules/submission';

type SubmissionFile = SubmittedFileData;
type SubmissionDetails = SubmissionDetailsData;
type Links = SubmissionLinksData;

const path = (applicationNo: string) => `drafts/${encodeURIComponent(applicationNo)}/submission`;

/**
 * Submission Success (spec §2): the Application Details and the download of everything submitted (the
 * application form, each document, one archive of all) for 7 days. The links are signed by the server
 * and work for a few minutes; they are fetched again when they are about to end.
 */
export function SuccessStep({ applicationNo }: { applicationNo: string }) {
  const { t, i18n } = useTranslation(['wizard', 'forms', 'flows']);
  const [details, setDetails] = useState<SubmissionDetails | null>(null);
  const [links, setLinks] = useState<Links | null>(null);
  const [error, setError] = useState('');

  const loadLinks = useCallback(async () => {
    try {
      const answer = await api.post<Links>(
        `${path(applicationNo)}/links`,
        { lang: i18next.language },
        {
          quiet: true,
          noLoading: true,
          ky: draftAuth(applicationNo),
        },
      );
      setLinks(answer.data);
    } catch (e) {
      setLinks(null);
      if (e instanceof ApiError && e.body?.meta.message) setError(e.body.meta.message);
    }
  }, [applicationNo]);

  useEffect(() => {
    let live = true;
    api
      .get<SubmissionDetails>(
        path(applicationNo),
        { lang: i18next.language },
        { quiet: true, ky: draftAuth(applicationNo) },
      )
      .then((answer) => {
        if (!live) return;
        setDetails(answer.data);
        if (answer.data.downloadable) void loadLinks();
      })
      .catch((e: unknown) => {
        if (live)
          setError(
            e instanceof ApiError && e.body?.meta.message
              ? e.body.meta.message
              : t('wizard:success.loadFailed'),
          );
      });
    return () => {
      live = false;
    };
  }, [applicationNo, loadLinks, t]);

  // Signed links last minutes: renew them shortly before they end while the page is open.
  useEffect(() => {
    if (!links) return;
    const ms = new Date(links.expiresAt).getTime() - Date.now() - 30_000;
    const timer = setTimeout(() => void loadLinks(), Math.max(5_000, ms));
    return () => clearTimeout(timer);
  }, [links, loadLinks]);

  const lang = i18n.language;
  const fileLabel = (f: SubmissionFile) =>
    f.kind === 'application'
      ? t('wizard:success.applicationPdf')
      : f.kind === 'archive'
        ? t('wizard:success.archive')
        : t(`forms:documents.${f.documentType ?? ''}`);

  return (
    <>
      <div className="notice notice--success" role="status">
        <p>{t('wizard:success.body', { applicationNo })}</p>
        <p>{t('wizard:success.next')}</p>
      </div>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      {details ? (
        <>
          <section aria-labelledby="success-details">
            <h2 id="success-details">{t('wizard:success.detailsTitle')}</h2>
            <dl className="preview__list">
              <Row term={t('wizard:success.applicationNo')} value={details.applicationNo} />
              <Row term={t('wizard:success.type')} value={t(`flows:forms.${details.formKey}.title`)} />
              <Row
                term={t('wizard:success.submittedAt')}
                value={formatDate(details.submittedAt, lang, true)}
              />
              <Row
                term={t('wizard:success.applicant')}
                value={[details.applicant.nameEn, details.applicant.nameZh].filter(Boolean).join(' ')}
              />
              <Row
                term={t('wizard:success.applicantContact')}
                value={[details.applicant.email, details.applicant.mobile].filter(Boolean).join(' · ')}
              />
              {details.contactPerson.name || details.contactPerson.email || details.contactPerson.mobile ? (
                <Row
                  term={t('wizard:success.contactPerson')}
                  value={[
                    details.contactPerson.name,
                    details.contactPerson.email,
                    details.contactPerson.mobile,
                    details.contactPerson.telephone,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              ) : null}
            </dl>
          </section>
          <section aria-labelledby="success-downloads">
            <h2 id="success-downloads">{t('wizard:success.downloadsTitle')}</h2>
            {details.downloadable ? (
              <>
                <p>
                  {t('wizard:success.downloadUntil', { date: formatDate(details.downloadUntil, lang, true) })}
                </p>
                {links ? (
                  <ul className="downloads">
                    {links.files.map((f) => (
                      <li key={f.id}>
                        <a href={f.url} download={f.fileName} data-file={f.id}>
                          {fileLabel(f)}
                        </a>
                        {/* The applicant's own file names; the portal's own files are named by their link. */}
                        {f.kind === 'document' ? (
                          <span className="downloads__name">
                            {' '}
                            ({f.fileName.replace(`${details.applicationNo} `, '')})
                          </span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <Button className="button" onPress={() => void loadLinks()}>
                    {t('wizard:success.showLinks')}
                  </Button>
                )}
              </>
            ) : (
              <p>{t('wizard:success.downloadsOver')}</p>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="preview__row">
      <dt>{term}</dt>
      <dd>{value || '–'}</dd>
    </div>
  );
}
