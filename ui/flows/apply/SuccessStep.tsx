import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { api, ApiError } from '../../api';
import type { RequestOptions } from '../../api/client';
import { formatDate } from '../../components/format';
import { draftAuth } from '../../api/draft-auth';
import type {
  SubmissionDetailsData,
  SubmissionLinksData,
  SubmittedFileData,
} from '../../../machines/rules/submission';

type SubmissionFile = SubmittedFileData;
type SubmissionDetails = SubmissionDetailsData;
type Links = SubmissionLinksData;

const path = (applicationNo: string) => `drafts/${encodeURIComponent(applicationNo)}/submission`;

/** Where a submission is read: the draft's own routes (its token) or Find my case's (the session). */
export interface SubmissionSource {
  details: string;
  links: string;
  options: RequestOptions;
  /** A 404 means "not submitted online": show nothing (Find my case of a paper application). */
  quietWhenMissing?: boolean;
}

/**
 * Submission Success (spec §2): the notice, then the Application Details and the downloads.
 */
export function SuccessStep({ applicationNo }: { applicationNo: string }) {
  const { t } = useTranslation('wizard');
  const source = useMemo<SubmissionSource>(
    () => ({
      details: path(applicationNo),
      links: `${path(applicationNo)}/links`,
      options: { quiet: true, ky: draftAuth(applicationNo) },
    }),
    [applicationNo],
  );
  return (
    <>
      <div className="notice notice--success" role="status">
        <p>{t('success.body', { applicationNo })}</p>
        <p>{t('success.next')}</p>
      </div>
      <SubmissionView source={source} />
    </>
  );
}

/**
 * The Application Details and the download of everything submitted (the application form, each
 * document, one archive of all) for 7 days after submission. The links are signed by the server and work
 * for a few minutes; they are fetched again when they are about to end.
 */
export function SubmissionView({ source }: { source: SubmissionSource }) {
  const { t, i18n } = useTranslation(['wizard', 'forms', 'flows']);
  const [missing, setMissing] = useState(false);
  const [details, setDetails] = useState<SubmissionDetails | null>(null);
  const [links, setLinks] = useState<Links | null>(null);
  const [error, setError] = useState('');

  const loadLinks = useCallback(async () => {
    try {
      const answer = await api.post<Links>(
        source.links,
        { lang: i18next.language },
        { ...source.options, noLoading: true },
      );
      setLinks(answer.data);
    } catch (e) {
      setLinks(null);
      if (e instanceof ApiError && e.body?.meta.message) setError(e.body.meta.message);
    }
  }, [source.links, source.options]);

  useEffect(() => {
    let live = true;
    api
      .get<SubmissionDetails>(source.details, { lang: i18next.language }, source.options)
      .then((answer) => {
        if (!live) return;
        setDetails(answer.data);
        if (answer.data.downloadable) void loadLinks();
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (source.quietWhenMissing && e instanceof ApiError && e.status === 404) setMissing(true);
        else
          setError(
            e instanceof ApiError && e.body?.meta.message
              ? e.body.meta.message
              : t('wizard:success.loadFailed'),
          );
      });
    return () => {
      live = false;
    };
  }, [source.details, source.options, source.quietWhenMissing, loadLinks, t]);

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

  if (missing) return null;
  return (
    <>
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
