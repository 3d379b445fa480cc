import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES, TITLE_NAMESPACES } from '../../machines/routes';
import { PageHeading } from '../components/PageHeading';
import type { SitemapGroup } from '../../machines/route-types';

const GROUPS: Exclude<SitemapGroup, 'hidden'>[] = [
  'menu',
  'information',
  'apply',
  'selfCert',
  'after',
  'other',
];

/** The sitemap, generated from the route table: every page a visitor can open directly. */
export default function SitemapPage() {
  // Every namespace a route title comes from (auth:findMyCase.title ...), not a hand-kept list.
  const { t } = useTranslation(['pages', ...TITLE_NAMESPACES]);
  return (
    <article className="content-page">
      <PageHeading>{t('pages:sitemap.title')}</PageHeading>
      <p className="lead">{t('pages:sitemap.intro')}</p>
      <div className="sitemap">
        {GROUPS.map((group) => {
          const routes = ROUTES.filter((r) => r.group === group);
          return (
            <section key={group} aria-labelledby={`sitemap-${group}`}>
              <h2 id={`sitemap-${group}`}>{t(`pages:sitemap.groups.${group}`)}</h2>
              <ul className="link-list">
                {routes.map((r) => (
                  <li key={r.path}>
                    <Link to={r.path}>{t(r.titleKey, { ns: 'common' })}</Link>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </article>
  );
}
