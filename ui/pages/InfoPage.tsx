import { useTranslation } from 'react-i18next';
import type { PageProps } from './registry';
import { isContentPage } from './content';
import { ContentSections } from '../components/ContentSections';
import { PageHeading } from '../components/PageHeading';

/** The information pages whose content is all in i18n `pages:<page id>`. */
export default function InfoPage({ route }: PageProps) {
  const { t } = useTranslation('pages');
  const content: unknown = t(route.page, { returnObjects: true });
  if (!isContentPage(content)) throw new Error(`pages:${route.page} is not a content page`);
  return (
    <article className="content-page">
      <PageHeading>{content.title}</PageHeading>
      <p className="lead">{content.intro}</p>
      <ContentSections sections={content.sections} />
    </article>
  );
}
