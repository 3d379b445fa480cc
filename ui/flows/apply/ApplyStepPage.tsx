import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button } from 'react-aria-components';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FormDefinition } from '../../../machines/forms/types';
import { PageHeading } from '../../components/PageHeading';
import { formatDate } from '../../components/format';
import {
  applyActorFor,
  dropApplyActor,
  focusFieldOnArrival,
  issuedFieldsOf,
  markLetterIssued,
  runningApplyActor,
  type ApplyActor,
} from './apply-store';
import { ISSUED_LETTER_FIELDS } from '../../../machines/rules/selfcert';
import { forgetTabDraft, keepInTab, keptTabDraft, reopenTabDraft, type StartOver } from './tab-draft';
import { fieldById, fieldDomId } from '../../../machines/forms';
import { FillStep } from './FillStep';
import { DraftNumber, SaveIndicator } from './SaveIndicator';
import { casePrefill, letterPrefill } from './case-prefill';
import { casesApi } from '../../api/cases';
import { getSession } from '../../session/store';
import { formA2MessageKey, takeStatusEntry } from '../signing/iamsmart-return';
import { ERROR_TOAST_DELAY_MS, showToast } from '../../feedback/stores';
import i18next from 'i18next';
import type { signingMachine } from '../../../machines/flows/signing.machine';
import type { ActorRefFrom } from 'xstate';

type SigningActor = ActorRefFrom<typeof signingMachine>;
import { Spinner } from '../../components/Spinner';
import { fillStepIndexes, indexOfStep, isFillStep, screenOf } from '../../../machines/flows/apply/steps';
import type { RouteDef } from '../../../machines/route-types';

// The screens after the first: chunks of their own, so the first step does not wait for them.
const PreviewStep = lazy(() => import('./PreviewStep').then((m) => ({ default: m.PreviewStep })));
const DocumentsStep = lazy(() => import('./DocumentsStep').then((m) => ({ default: m.DocumentsStep })));
const SuccessStep = lazy(() => import('./SuccessStep').then((m) => ({ default: m.SuccessStep })));
const SignStep = lazy(() => import('../signing/SignStep').then((m) => ({ default: m.SignStep })));

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
  const hydrating = useHydrating();
  // The wizard already running in this page, or a new one; after a reload, the tab's draft first.
  const [opened, setOpened] = useState<Opened | null>(() => {
    const running = runningApplyActor(definition.key);
    if (running) return { actor: running };
    return keptTabDraft(definition.key) ? null : { actor: applyActorFor(definition) };
  });
  useEffect(() => {
    if (opened) return;
    let live = true;
    void reopenOnce(definition).then((reopened) => {
      if (live) setOpened(reopened ?? { actor: applyActorFor(definition, undefined, true) });
    });
    return () => {
      live = false;
    };
  }, [opened, definition]);
  useEffect(() => (opened ? keepInTab(definition.key, opened.actor) : undefined), [opened, definition.key]);
  if (!opened) {
    // A prerendered first step hydrates as it was rendered (a new form); the tab's draft replaces it.
    if (hydrating)
      return <ApplyWizard route={route} definition={definition} actor={applyActorFor(definition)} />;
    return (
      <article className="content-page content-page--form">
        <Spinner />
      </article>
    );
  }
  return (
    <ApplyWizard
      // A reopened draft is a new wizard: its heading takes focus as a new page's would.
      key={opened.startOver ?? 'wizard'}
      route={route}
      definition={definition}
      actor={opened.actor}
      startOver={opened.startOver}
    />
  );
}

interface Opened {
  actor: ApplyActor;
  startOver?: StartOver;
}

/** One reopening per form at a time (React may run an effect twice): both wait for the same answer. */
let reopening: { key: string; promise: ReturnType<typeof reopenTabDraft> } | null = null;
function reopenOnce(definition: FormDefinition) {
  if (reopening?.key !== definition.key) {
    const promise = reopenTabDraft(definition);
    reopening = { key: definition.key, promise };
    void promise.finally(() => {
      if (reopening?.promise === promise) reopening = null;
    });
  }
  return reopening.promise;
}

const noSubscription = () => () => {};
/** True while React hydrates prerendered HTML (the server's snapshot), false once the page is live. */
const useHydrating = () =>
  useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );

function ApplyWizard({
  route,
  definition,
  actor,
  startOver,
}: {
  route: RouteDef;
  definition: FormDefinition;
  actor: ApplyActor;
  startOver?: StartOver;
}) {
  const { t } = useTranslation(['flows', 'forms', 'wizard']);
  const [issuedFields, setIssuedFields] = useState(() => issuedFieldsOf(actor));
  const snapshot = useSelector(actor, (s) => s);
  const screen = screenOf(snapshot);
  const location = useLocation();
  const navigate = useNavigate();
  const seenPath = useRef<string | null>(null);
  // The route a navigation was asked for and has not yet reached: the router commits a navigation later,
  // and a render meanwhile (the autosave's status) must not ask again, which would add a second history
  // entry and make the browser's Back land on the same step.
  const pending = useRef<string | null>(null);
  const redirecting = useRef(false);

  // "Self-certify this case" from the case page: the case and the certifier, into fields still empty.
  useEffect(() => {
    const { answers } = actor.getSnapshot().context;
    for (const event of casePrefill(definition, location.search, answers)) actor.send(event);
    // ... and the letter the department issued, read with the AP's own session of that case.
    // Only with an AP's or RSE's own login (without one the case API would end the visit: 401 goes home).
    const { isLogin, role } = getSession();
    if (!definition.selfCertification || !new URLSearchParams(location.search).has('case')) return;
    if (!isLogin || (role !== 'ap' && role !== 'rse')) return;
    let live = true;
    casesApi
      .current({ quiet: true })
      .then((data) => {
        if (!live) return;
        const offered = data.selfCertification && {
          applicationNo: data.applicationNo,
          letter: data.selfCertification.letter,
        };
        const now = actor.getSnapshot().context.answers;
        for (const event of letterPrefill(definition, location.search, now, offered)) actor.send(event);
        // The letter's reference, date and items are the department's now: read only on its step.
        const letter =
          offered && offered.applicationNo === new URLSearchParams(location.search).get('case')
            ? offered.letter
            : null;
        if (letter) {
          markLetterIssued(
            actor,
            ISSUED_LETTER_FIELDS.filter((id) => letter[id] !== undefined),
          );
          setIssuedFields(issuedFieldsOf(actor));
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [actor, definition, location.search]);

  useEffect(() => {
    if (!screen) return;
    if (seenPath.current !== location.pathname) {
      // The URL changed (a link, a typed address, the back button): ask the machine for that step.
      seenPath.current = location.pathname;
      pending.current = null;
      if (screen.route !== location.pathname && route.flow) {
        redirecting.current = true;
        // `/form-<slug>-upload` (self-certification) asks for the upload step: it opens when the wizard is
        // there, else the furthest step reachable (the upload step is reached by confirming the preview).
        const step =
          route.flow.kind === 'layoutPlan' ? indexOfStep(definition, 'upload') + 1 : route.flow.step;
        actor.send({ type: 'step.goto', step });
      }
      return;
    }
    if (screen.route !== location.pathname && pending.current !== screen.route) {
      // The machine moved: show its step. A refused deep link replaces the URL instead of adding one.
      pending.current = screen.route;
      void navigate(screen.route, { replace: redirecting.current });
    }
    redirecting.current = false;
  }, [location.pathname, screen, actor, navigate, route.flow, definition]);

  // Back from iAM Smart (/iamsmart): an error entry becomes an error toast after 2 seconds (spec §4).
  useEffect(() => {
    const entry = takeStatusEntry();
    if (entry?.type !== 'error') return;
    void i18next.loadNamespaces('signing');
    const timer = setTimeout(
      () =>
        showToast(
          'error',
          i18next.t(
            formA2MessageKey(entry.code, (k) => i18next.exists(k)),
            { code: entry.code },
          ),
        ),
      ERROR_TOAST_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, []);

  const exited = snapshot.matches({ wizard: 'exited' });
  useEffect(() => {
    if (!exited) return;
    dropApplyActor(definition.key);
    forgetTabDraft(definition.key);
    void navigate(route.flow?.entryPath ?? '/');
  }, [exited, definition.key, navigate, route.flow]);
  // Submitted: a reload starts a new form.
  const submitted = snapshot.matches({ wizard: 'success' });
  useEffect(() => {
    if (submitted) forgetTabDraft(definition.key);
  }, [submitted, definition.key]);

  if (!screen) return null;
  const c = snapshot.context;
  const firstFill = fillStepIndexes(definition)[0] ?? 0;
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
      {/* Nothing is saved after submission: no "Saved at" on the success page. */}
      {screen.screen !== 'success' ? <SaveIndicator actor={actor} /> : null}
      {screen.screen !== 'success' ? <DraftNumber actor={actor} /> : null}
      {startOver && screen.screen === 'fill' && c.stepIndex === firstFill ? (
        <div className="notice notice--info" role="status">
          <p>{t(`wizard:reload.${startOver}`)}</p>
        </div>
      ) : null}
      <Suspense fallback={<Spinner />}>
        {screen.screen === 'fill' ? (
          <FillStep
            actor={actor}
            definition={definition}
            stepIndex={c.stepIndex}
            answers={c.answers}
            showErrors={Object.keys(c.errors).length > 0}
            serverErrors={c.serverErrors}
            saveRefusals={c.saveRefusals}
            checking={snapshot.matches({ wizard: 'checking' })}
            canGoBack={isFillStep(definition, c.stepIndex - 1)}
            isLastFill={!isFillStep(definition, c.stepIndex + 1) || c.returnToPreview}
            atRoute={screen.route === location.pathname}
            issuedFields={issuedFields}
          />
        ) : null}
        {screen.screen === 'preview' ? (
          <PreviewStep actor={actor} definition={definition} answers={c.answers} />
        ) : null}
        {screen.screen === 'saved' ? <SavedScreen actor={actor} /> : null}
        {screen.screen === 'upload' ? <UploadScreens actor={actor} definition={definition} /> : null}
        {screen.screen === 'success' && c.applicationNo ? (
          <SuccessStep applicationNo={c.applicationNo} />
        ) : null}
      </Suspense>
    </article>
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

/** The applicant's HKIC, which signing with iAM Smart needs (api/modules/applications/application-signing.ts: 422 HKIC_REQUIRED). */
const HKIC_FIELD = 'applicantHkic';

/** The Upload Documents step: the documents, then signing (the signing machine's screens), then submit. */
function UploadScreens({ actor, definition }: { actor: ApplyActor; definition: FormDefinition }) {
  const { t } = useTranslation('wizard');
  const state = useSelector(actor, (s) =>
    s.matches({ wizard: { upload: 'documents' } })
      ? 'documents'
      : s.matches({ wizard: { upload: { sign: 'signing' } } })
        ? 'signing'
        : s.matches({ wizard: { upload: { sign: 'signed' } } })
          ? 'signed'
          : 'submitting',
  );
  // The invoked signing machine (the child's id is the invoke's id).
  const signer = useSelector(actor, (s) => s.children.signDocuments) as SigningActor | undefined;
  const signature = useSelector(actor, (s) => s.context.signature);
  const submitError = useSelector(actor, (s) => s.context.submitError);
  const submitMessage = useSelector(actor, (s) => s.context.submitMessage);
  const hkicAnswer = useSelector(actor, (s) => s.context.answers[HKIC_FIELD]);
  const hkicPlace = fieldById(definition, HKIC_FIELD);
  const hkic = hkicPlace && {
    missing: typeof hkicAnswer !== 'string' || hkicAnswer.trim() === '',
    // Back out of signing to the documents, then to the HKIC field of its fill step.
    onEnter: () => {
      focusFieldOnArrival(fieldDomId([HKIC_FIELD]));
      const step = definition.steps.indexOf(hkicPlace.step) + 1;
      const sub = actor.subscribe((s) => {
        if (!s.matches({ wizard: { upload: 'documents' } })) return;
        sub.unsubscribe();
        actor.send({ type: 'step.goto', step });
      });
      signer?.send({ type: 'signing.back' });
    },
  };

  if (state === 'documents') return <DocumentsStep actor={actor} definition={definition} />;
  if (state === 'signing') return signer ? <SignStep actor={signer} hkic={hkic} /> : null;
  if (state === 'submitting')
    return (
      <div role="status" className="flow-busy">
        <Spinner label={t('submit.working')} />
      </div>
    );
  return (
    <section aria-labelledby="submit-title">
      <h2 id="submit-title">{t('submit.title')}</h2>
      <p>{t('submit.body')}</p>
      {signature ? (
        <p className="field__hint">{t('submit.reference', { reference: signature.reference })}</p>
      ) : null}
      {submitError ? (
        <p className="field__error" role="alert">
          {t('submit.failed', { reason: submitMessage ?? t('submit.failedUnknown') })}
        </p>
      ) : null}
      <div className="form__actions">
        <Button className="button" onPress={() => actor.send({ type: 'sign.start' })}>
          {t('submit.signAgain')}
        </Button>
        <Button className="button button--primary" onPress={() => actor.send({ type: 'submit.confirm' })}>
          {t('submit.button')}
        </Button>
      </div>
    </section>
  );
}
