import { useEffect, useState } from 'react';
import { bearerHeaders } from '../api/draft-auth';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { api } from '../api';
import { PageHeading } from '../components/PageHeading';
import { draftToken } from '../flows/apply/draft-tokens';

type Loaded = { key: string; url: string } | { key: string; failed: true };

/**
 * The application form as a PDF: `/pdf?application=<no>` fetches it (GET /api/drafts/:no/pdf) with this
 * browser's token for the draft and offers it to download or open in a new tab. The CSP allows no
 * embedded viewer (object-src 'none'), so the PDF opens from a blob: link. Without an application, or
 * when it cannot be loaded, the page says so.
 */
export default function PdfPage() {
  const { t, i18n } = useTranslation('common');
  const [params] = useSearchParams();
  const applicationNo = params.get('application')?.trim() ?? '';
  const token = applicationNo ? draftToken(applicationNo) : undefined;
  const lang = i18n.language;
  const key = applicationNo && token ? `${applicationNo}|${lang}` : '';
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!key || !token) return;
    let url: string | undefined;
    let cancelled = false;
    api
      .blob(
        `drafts/${encodeURIComponent(applicationNo)}/pdf`,
        { lang },
        { quiet: true, ky: bearerHeaders(token) },
      )
      .then((blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
        setLoaded({ key, url });
      })
      .catch(() => {
        if (!cancelled) setLoaded({ key, failed: true });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [key, applicationNo, token, lang]);

  const state = !key
    ? { kind: 'none' as const }
    : loaded?.key !== key
      ? { kind: 'loading' as const }
      : 'url' in loaded
        ? { kind: 'ready' as const, url: loaded.url }
        : { kind: 'failed' as const };

  return (
    <article className="content-page bare-page">
      <PageHeading>{t('pdf.title')}</PageHeading>
      {applicationNo && state.kind !== 'none' ? (
        <p>
          {t('pdf.applicationNo')} <strong>{applicationNo}</strong>
        </p>
      ) : null}
      {state.kind === 'loading' ? <p role="status">{t('pdf.loading')}</p> : null}
      {state.kind === 'ready' ? (
        <ul className="pdf-links">
          <li>
            <a href={state.url} download={`${applicationNo}.pdf`}>
              {t('pdf.download')}
            </a>
          </li>
          <li>
            <a href={state.url} target="_blank" rel="noopener noreferrer">
              {t('pdf.openNewTab')}
            </a>
          </li>
        </ul>
      ) : null}
      {state.kind === 'none' ? <p>{t('pdf.none')}</p> : null}
      {state.kind === 'failed' ? <p role="alert">{t('pdf.failed')}</p> : null}
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </article>
  );
}
