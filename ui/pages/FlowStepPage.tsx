import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { titleKeyFor } from '../../machines/routes';
import type { PageProps } from './registry';
import { PageHeading } from '../components/PageHeading';

/**
 * A step of a flow whose online form is not open yet: the form, the step's title and what happens on
 * it, and honest word that the online form is not open, with ways forward. No fake form.
 */
export default function FlowStepPage({ route }: PageProps) {
  const { t } = useTranslation(['flows', 'common']);
  const { search } = useLocation();
  const flow = route.flow;
  if (!flow) throw new Error(`${route.path} is not a flow step`);
  const formTitle = t(titleKeyFor(route, search));
  const stepTitle = t(`flows:steps.${flow.kind}.title`);
  return (
    <article className="content-page flow-step">
      <p className="flow-step__form">{formTitle}</p>
      <PageHeading title={`${stepTitle} – ${formTitle}`}>{stepTitle}</PageHeading>
      {flow.total > 1 && flow.step > 0 ? (
        <p className="flow-step__progress">{t('flows:stepOf', { n: flow.step, total: flow.total })}</p>
      ) : null}
      <p className="lead">{t(`flows:steps.${flow.kind}.description`)}</p>
      <section className="notice notice--info" aria-labelledby="not-open-heading">
        <h2 id="not-open-heading">{t('flows:notOpen.heading')}</h2>
        <p>{t('flows:notOpen.body')}</p>
        <ul className="link-list">
          {flow.entryPath !== '/' ? (
            <li>
              <Link to={flow.entryPath}>{t('flows:notOpen.backToEntry')}</Link>
            </li>
          ) : null}
          <li>
            <Link to="/user-manual">{t('flows:notOpen.guide')}</Link>
          </li>
          <li>
            <Link to="/contact-us">{t('flows:notOpen.contact')}</Link>
          </li>
        </ul>
      </section>
    </article>
  );
}
