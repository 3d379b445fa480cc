import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ContentLink, ContentSection } from '../pages/content';
import { Icon } from './Icon';

export function SmartLink({ link }: { link: ContentLink }) {
  const { t } = useTranslation('common');
  if (link.to.startsWith('/')) return <Link to={link.to}>{link.label}</Link>;
  return (
    <a href={link.to} target="_blank" rel="noopener noreferrer">
      {link.label}
      <span className="visually-hidden"> {t('footer.newWindow')}</span>
      <Icon name="external" className="icon--external" />
    </a>
  );
}

/** Renders the sections of a content page: paragraphs, bullet lists, numbered steps, Q&A and links. */
export function ContentSections({ sections, level = 2 }: { sections: ContentSection[]; level?: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <>
      {sections.map((section, i) => (
        <section key={i} className="content-section" aria-labelledby={`section-${level}-${i}`}>
          <H id={`section-${level}-${i}`}>{section.heading}</H>
          {section.paragraphs?.map((p, j) => (
            <p key={j}>{p}</p>
          ))}
          {section.list ? (
            <ul>
              {section.list.map((item, j) => (
                <li key={j}>{item}</li>
              ))}
            </ul>
          ) : null}
          {section.steps ? (
            <ol className="steps">
              {section.steps.map((item, j) => (
                <li key={j}>{item}</li>
              ))}
            </ol>
          ) : null}
          {section.faq ? (
            <dl className="faq">
              {section.faq.map((qa, j) => (
                <div key={j} className="faq__item">
                  <dt>{qa.q}</dt>
                  <dd>{qa.a}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          {section.links ? (
            <ul className="link-list">
              {section.links.map((link) => (
                <li key={link.to}>
                  <SmartLink link={link} />
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </>
  );
}
