import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isLanguage, type Language } from '../../machines/rules/language';

/** Path segment of the partner sites for each language. */
const SITE_LANG: Record<Language, string> = { en: 'en', tc: 'tc', sc: 'sc' };
const BRAND_HK_LANG: Record<Language, string> = { en: 'en', tc: 'zh-hk', sc: 'zh-cn' };
export const COPYRIGHT_YEAR = 2025;

export function Footer() {
  const { t, i18n } = useTranslation('common');
  const lang: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label={t('footer.label')}>
          <ul className="site-footer__links">
            <li>
              <Link to="/important-notices">{t('pages.importantNotices')}</Link>
            </li>
            <li>
              <Link to="/privacy-policy">{t('pages.privacy')}</Link>
            </li>
            <li>
              <Link to="/sitemap">{t('pages.sitemap')}</Link>
            </li>
          </ul>
        </nav>
        <ul className="site-footer__logos" aria-label={t('footer.partners')}>
          <li>
            <a href={`https://www.swd.gov.hk/${SITE_LANG[lang]}/`} rel="noopener noreferrer" target="_blank">
              <img src="/logo-swd.svg" alt={t('footer.swd')} width="150" height="44" />
              <span className="visually-hidden">{t('footer.newWindow')}</span>
            </a>
          </li>
          <li>
            <a href={`https://www.edb.gov.hk/${SITE_LANG[lang]}/`} rel="noopener noreferrer" target="_blank">
              <img src="/logo-edb.svg" alt={t('footer.edb')} width="150" height="44" />
              <span className="visually-hidden">{t('footer.newWindow')}</span>
            </a>
          </li>
          <li>
            <a
              href={`https://www.brandhk.gov.hk/${BRAND_HK_LANG[lang]}/`}
              rel="noopener noreferrer"
              target="_blank"
            >
              <img src={`/brandhk-${lang}.svg`} alt={t('footer.brandHk')} width="150" height="44" />
              <span className="visually-hidden">{t('footer.newWindow')}</span>
            </a>
          </li>
        </ul>
        <p className="site-footer__copyright">{t('footer.copyright', { year: COPYRIGHT_YEAR })}</p>
      </div>
    </footer>
  );
}
