import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { indexOfStep, isFillStep, screenOf } from '../../../machines/flows/apply.machine';
import type { FormDefinition } from '../../../machines/forms/types';
import type { RouteDef } from '../../../machines/routes';
import { PageHeading } from '../../components/PageHeading';
import { formatDate } from '../../components/format';
import { applyActorFor, dropApplyActor, type ApplyActor } from './apply-store';
import { FillStep } from './FillStep';
import { PreviewStep } from './PreviewStep';

/**
 * The screens of the application wizard. The machine decides the step: a state change navigates to
 * its route; a typed URL or the browser's back button becomes `step.goto`, and a step the machine
 * cannot reach yet lands on the furthest reachable one.
 */
export default function ApplyStepPage({
  route,
  definition,
}: {
  route: RouteDef;
  definition: FormDefinition;
}) {
  const { t } = useTranslation(['flows', 'forms', 'wizard']);
  const [actor] = useState(() => applyActorFor(definition));
  const snapshot = useSelector(actor, (s) => s);
  const screen = screenOf(snapshot);
  const location = useLocation();
  const navigate = useNavigate();
  const seenPath = useRef<string | null>(null);
  const redirecting = useRef(false);

  useEffect(() => {
    if (!screen) return;
    if (seenPath.current !== location.pathname) {
      // The URL changed (a link, a typed address, the back button): ask the machine for that step.
      seenPath.current = location.pathname;
      if (screen.route !== location.pathname && route.flow) {
        redirecting.current = true;
        actor.send({ type: 'step.goto', step: route.flow.step });
      }
      return;
    }
    if (screen.route !== location.pathname) {
      // The machine moved: show its step. A refused deep link replaces the URL instead of adding one.
      void navigate(screen.route, { replace: redirecting.current });
    }
    redirecting.current = false;
  }, [location.pathname, screen, actor, navigate, route.flow]);

  const exited = snapshot.matches({ wizard: 'exited' });
  useEffect(() => {
    if (!exited) return;
    dropApplyActor(definition.key);
    void navigate(route.flow?.entryPath ?? '/');
  }, [exited, definition.key, navigate, route.flow]);

  if (!screen) return null;
  const c = snapshot.context;
  const formTitle = t(`flows:forms.${definition.key}.title`);
  const stepTitle =
    screen.screen === 'saved'
      ? t('wizard:saved.title')
      : screen.screen === 'preview'
        ? t('wizard:preview.title')
        : t(screen.titleKey.includes(':') ? screen.titleKey : `forms:${screen.titleKey}`);

  return (
    <article className="content-page content-page--form">
      <p className="flow-step__form">{formTitle}</p>
      <PageHeading title={`${stepTitle} – ${formTitle}`} focusKey={`${screen.screen}-${screen.step}`}>
        {stepTitle}
      </PageHeading>
      {screen.screen !== 'saved' ? (
        <p className="flow-step__progress">{t('wizard:stepOf', { n: screen.step, total: screen.total })}</p>
      ) : null}
      <SaveIndicator actor={actor} />
      {screen.screen === 'fill' ? (
        <FillStep
          actor={actor}
          definition={definition}
          stepIndex={c.stepIndex}
          answers={c.answers}
          showErrors={Object.keys(c.errors).length > 0}
          canGoBack={isFillStep(definition, c.stepIndex - 1)}
          isLastFill={!isFillStep(definition, c.stepIndex + 1) || c.returnToPreview}
        />
      ) : null}
      {screen.screen === 'preview' ? (
        <PreviewStep actor={actor} definition={definition} answers={c.answers} />
      ) : null}
      {screen.screen === 'saved' ? <SavedScreen actor={actor} /> : null}
      {screen.screen === 'upload' || screen.screen === 'success' ? (
        <section className="notice notice--info" aria-labelledby="not-open-heading">
          <h2 id="not-open-heading">{t('flows:notOpen.heading')}</h2>
          <p>{t(`flows:steps.${screen.screen}.description`)}</p>
          <p>{t('flows:notOpen.body')}</p>
          {indexOfStep(definition, 'preview') >= 0 ? (
            <Button className="button" onPress={() => actor.send({ type: 'step.back' })}>
              {t('wizard:back')}
            </Button>
          ) : null}
        </section>
      ) : null}
    </article>
  );
}

function SaveIndicator({ actor }: { actor: ApplyActor }) {
  const { t, i18n } = useTranslation('wizard');
  const status = useSelector(actor, (s) => s.context.saveStatus);
  const error = useSelector(actor, (s) => s.context.saveError);
  const at = useSelector(actor, (s) => s.context.lastSavedAt);
  const text =
    error === 'expired'
      ? t('autosave.expired')
      : status === 'saving'
        ? t('autosave.saving')
        : status === 'saved' && at
          ? t('autosave.saved', { time: formatDate(new Date(at).toISOString(), i18n.language, true) })
          : status === 'stale'
            ? t('autosave.stale')
            : status === 'error'
              ? t('autosave.error')
              : '';
  return (
    <div className={`save-indicator save-indicator--${status}`}>
      <p role="status" aria-live="polite" aria-atomic="true">
        {text}
      </p>
      {status === 'stale' ? (
        <Button className="button" onPress={() => actor.send({ type: 'draft.reload' })}>
          {t('autosave.reload')}
        </Button>
      ) : null}
    </div>
  );
}

function SavedScreen({ actor }: { actor: ApplyActor }) {
  const { t, i18n } = useTranslation('wizard');
  const applicationNo = useSelector(actor, (s) => s.context.applicationNo);
  const validUntil = useSelector(actor, (s) => s.context.validUntil);
  return (
    <section className="saved">
      <p>{t('saved.body')}</p>
      <dl className="saved__facts">
        <div>
          <dt>{t('saved.code')}</dt>
          <dd className="saved__code">{applicationNo}</dd>
        </div>
        <div>
          <dt>{t('saved.validUntil')}</dt>
          <dd>{validUntil ? formatDate(validUntil, i18n.language, true) : ''}</dd>
        </div>
      </dl>
      <p className="field__hint">{t('saved.validNote')}</p>
      <div className="form__actions">
        <Button className="button button--primary" onPress={() => actor.send({ type: 'saved.continue' })}>
          {t('saved.continue')}
        </Button>
        <Button className="button" onPress={() => actor.send({ type: 'saved.exit' })}>
          {t('saved.exit')}
        </Button>
      </div>
    </section>
  );
}
