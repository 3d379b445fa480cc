import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { ENTRY_FORMS, entryKeyFor, firstStepPath, formCode } from '../../machines/routes';
import type { PageProps } from './registry';
import { isContentPage } from './content';
import { ContentSections } from '../components/ContentSections';
import { PageHeading } from '../components/PageHeading';

/** An entry or description page: who applies, what to prepare, what happens after, and the way in. */
export default function EntryPage({ route }: PageProps) {
  const { t } = useTranslation(['entry', 'flows']);
  const { search } = useLocation();
  const key = entryKeyFor(route, search);
  if (!key) throw new Error(`${route.path} has no entry content`);
  const content: unknown = t(key, { returnObjects: true });
  if (!isContentPage(content)) throw new Error(`entry:${key} is not a content page`);
  const forms = ENTRY_FORMS[key] ?? [];
  return (
    <article className="content-page">
      <PageHeading>{content.title}</PageHeading>
      <p className="lead">{content.intro}</p>
      <ContentSections sections={content.sections} />
      {forms.length > 0 ? (
        <section className="start-box" aria-labelledby="start-heading">
          <h2 id="start-heading">
            {forms.length > 1 ? t('entry:common.chooseForm') : t('entry:common.beforeYouStart')}
          </h2>
          <p>{t('entry:common.startFormHint')}</p>
          <ul className="start-box__list">
            {forms.map((form) => (
              <li key={form}>
                <Link className="button button--primary" to={firstStepPath(form)}>
                  {t('entry:common.startForm', { code: formCode(form) })}
                </Link>
                <span className="start-box__form-title">{t(`flows:forms.${form}.title`)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
