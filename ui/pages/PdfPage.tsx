import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeading } from '../components/PageHeading';

/** The PDF view page. Documents to view come with submission; until then it says none is open. */
export default function PdfPage() {
  const { t } = useTranslation('common');
  return (
    <article className="content-page bare-page">
      <PageHeading>{t('pdf.title')}</PageHeading>
      <p>{t('pdf.none')}</p>
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </article>
  );
}
