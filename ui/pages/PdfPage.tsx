import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { ROUTES } from '../../machines/routes';
import { PageHeading } from '../components/PageHeading';
import { PdfViewer } from '../components/PdfViewer';
import { useApplicationPdf } from '../flows/apply/application-pdf';

/** `back` when it is a page of the portal (never another site), else home. */
function backPath(back: string | null): string {
  const path = back?.split('?')[0] ?? '';
  return back && ROUTES.some((r) => r.path === path) ? back : '/';
}

/**
 * The PDF view (spec §2, a layout-free page): `/pdf?application=<no>&back=<path>` shows the application
 * form of a draft this browser holds, drawn in the page by pdf.js (ui/components/PdfViewer.tsx), with the
 * department's name above it, a download link and the way back to where it was opened from. Without an
 * application, or when it cannot be loaded, the page says so.
 */
export default function PdfPage() {
  const { t, i18n } = useTranslation('common');
  const [params] = useSearchParams();
  const applicationNo = params.get('application')?.trim() ?? '';
  const back = backPath(params.get('back'));
  const pdf = useApplicationPdf(applicationNo, i18n.language);

  return (
    <article className="content-page bare-page pdf-page">
      <p className="pdf-page__brand">
        <img src="/bd-logo.svg" alt="" width={40} height={40} />
        <span>{t('bd')}</span>
      </p>
      <p>
        <Link to={back}>{back === '/' ? t('backHome') : t('pdf.back')}</Link>
      </p>
      <PageHeading>{t('pdf.title')}</PageHeading>
      {applicationNo && pdf.kind !== 'none' ? (
        <p>
          {t('pdf.applicationNo')} <strong>{applicationNo}</strong>
        </p>
      ) : null}
      {pdf.kind === 'loading' ? <p role="status">{t('pdf.loading')}</p> : null}
      {pdf.kind === 'ready' ? (
        <>
          <p>
            <a href={pdf.url} download={`${applicationNo}.pdf`}>
              {t('pdf.download')}
            </a>
          </p>
          <PdfViewer data={pdf.blob} label={t('pdf.viewer')} />
        </>
      ) : null}
      {pdf.kind === 'none' ? <p>{t('pdf.none')}</p> : null}
      {pdf.kind === 'failed' ? <p role="alert">{t('pdf.failed')}</p> : null}
    </article>
  );
}
