import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../components/PageHeading';

/**
 * The return page of iAM Smart: the service comes back here with `?code&state` or `?error_code`. The
 * signing flow that consumes the answer comes with the signing issue; until then this page says plainly
 * that no request is waiting, and shows an error code it was given.
 */
export default function IAmSmartPage() {
  const { t } = useTranslation('common');
  const [params] = useSearchParams();
  const errorCode = params.get('error_code');
  return (
    <article className="content-page bare-page">
      <PageHeading>{t('iamsmart.title')}</PageHeading>
      {errorCode ? (
        <p role="alert">{t('iamsmart.error', { code: errorCode.slice(0, 32) })}</p>
      ) : (
        <p>{t('iamsmart.none')}</p>
      )}
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </article>
  );
}
