import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formCode, firstStepPath } from '../../machines/routes';
import { isLoggedIn } from '../../machines/rules/session-state';
import { useSession } from '../session/store';
import { visibleMenu } from '../layouts/menu-links';
import { ContentSections, SmartLink } from '../components/ContentSections';
import { PageHeading } from '../components/PageHeading';
import { isContentPage, type ContentLink } from './content';
import { FORM_SPECS } from '../../machines/forms/catalogue-index';
import { formatDate } from '../components/format';

interface NewsItem {
  date: string;
  title: string;
  body: string;
}

function list<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

export default function HomePage() {
  const { t, i18n } = useTranslation(['pages', 'common', 'flows']);
  const loggedIn = useSession(isLoggedIn);
  const content: unknown = t('pages:home', { returnObjects: true });
  if (!isContentPage(content)) throw new Error('pages:home is not a content page');
  const news = list<NewsItem>(t('pages:home.news', { returnObjects: true }));
  const quickLinks = list<ContentLink>(t('pages:home.quickLinks', { returnObjects: true }));
  const whatYouCanDo = list<string>(t('pages:home.whatYouCanDo', { returnObjects: true }));
  const groups = visibleMenu(loggedIn).filter((g) => g.id === 'apply' || g.id === 'manage');
  const applicationForms = FORM_SPECS.filter((f) => f.group === 'apply' || f.group === 'selfCert');

  return (
    <div className="home">
      <section className="hero">
        <PageHeading>{content.title}</PageHeading>
        <p className="lead">{content.intro}</p>
        <ul className="hero__list">
          {whatYouCanDo.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-menu">
        <h2 id="home-menu">{t('pages:home.menuHeading')}</h2>
        <div className="card-grid">
          {groups.flatMap((g) =>
            g.sections.map((section, i) => (
              <nav
                key={`${g.id}-${i}`}
                className="card"
                aria-label={t(section.labelKey ?? g.labelKey, { ns: 'common' })}
              >
                <h3>{t(section.labelKey ?? g.labelKey, { ns: 'common' })}</h3>
                <ul>
                  {section.links.map((link) => (
                    <li key={link.to}>
                      <Link to={link.to}>{t(link.labelKey, { ns: 'common' })}</Link>
                    </li>
                  ))}
                </ul>
              </nav>
            )),
          )}
        </div>
      </section>

      <ContentSections sections={content.sections} />

      <div className="home__columns">
        <section aria-labelledby="home-news" className="home__news">
          <h2 id="home-news">{t('common:home.news')}</h2>
          <ul className="news-list">
            {news.map((item) => (
              <li key={item.date + item.title}>
                <article>
                  <h3>{item.title}</h3>
                  <p className="news-list__date">
                    <time dateTime={item.date}>{formatDate(item.date, i18n.language)}</time>
                  </p>
                  <p>{item.body}</p>
                </article>
              </li>
            ))}
          </ul>
        </section>
        <div className="home__side">
          <section aria-labelledby="home-quick-links">
            <h2 id="home-quick-links">{t('common:home.quickLinks')}</h2>
            <ul className="link-list">
              {quickLinks.map((link) => (
                <li key={link.to}>
                  <SmartLink link={link} />
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="home-help" className="notice notice--info">
            <h2 id="home-help">{t('pages:home.help.heading')}</h2>
            <p>{t('pages:home.help.body')}</p>
            <ul className="link-list">
              <li>
                <Link to="/help">{t('common:pages.help')}</Link>
              </li>
              <li>
                <Link to="/user-manual">{t('common:pages.userManual')}</Link>
              </li>
              <li>
                <Link to="/faq">{t('common:pages.faq')}</Link>
              </li>
              <li>
                <Link to="/contact-us">{t('common:pages.contactUs')}</Link>
              </li>
            </ul>
          </section>
        </div>
      </div>

      <section aria-labelledby="home-forms">
        <h2 id="home-forms">{t('pages:home.publicForms.heading')}</h2>
        <p>{t('pages:home.publicForms.intro')}</p>
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">{t('pages:home.publicForms.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('common:home.formCode')}</th>
                <th scope="col">{t('common:home.formTitle')}</th>
                <th scope="col">{t('common:home.formLinks')}</th>
              </tr>
            </thead>
            <tbody>
              {applicationForms.map((f) => (
                <tr key={f.form}>
                  <th scope="row">{formCode(f.form)}</th>
                  <td>{t(`flows:forms.${f.form}.title`)}</td>
                  <td>
                    <ul className="inline-links">
                      <li>
                        <Link to={f.entryPath}>{t('common:home.formGuidance')}</Link>
                      </li>
                      <li>
                        <Link to={firstStepPath(f.form)}>
                          {t('common:home.formOnline')}
                          <span className="visually-hidden"> {formCode(f.form)}</span>
                        </Link>
                      </li>
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
