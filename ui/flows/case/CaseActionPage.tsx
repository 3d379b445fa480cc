import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { caseActionMachine, type ValidationContext } from '../../../machines/flows/case-action.machine';
import {
  changesOf,
  followUpByRoute,
  followUpForCase,
  followUpSchema,
} from '../../../machines/forms/follow-up';
import { LAYOUT_PLAN_DOCUMENT, submitDocumentFor } from '../../../machines/forms/follow-up/submit-document';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { PageHeading } from '../../components/PageHeading';
import { Spinner } from '../../components/Spinner';
import type { PageProps } from '../../pages/registry';
import { startSession } from '../../session/auth';
import { getSession } from '../../session/store';
import { inspectOptions } from '../inspector';
import { OtpLoginForm } from '../login/OtpLoginForm';
import { loginWith, otpActors } from '../login/otp-actors';
import { caseActors, startOfSearch } from './case-actors';
import { CaseSignStep } from './CaseSignStep';
import { CaseNotAllowed } from './CaseNotAllowed';
import { CaseSummary } from './CaseSummary';
import { CaseUploadsStep } from './CaseUploadsStep';
import { FollowUpFill } from './FollowUpFill';
import { FollowUpPreview } from './FollowUpPreview';
import { CaseActionDone } from './CaseActionDone';
import { UpdateChanges, type UpdateDone } from './UpdateChanges';
import {
  changedAnswers,
  forgetAnswers,
  keepAnswers,
  keptAnswers,
  keptScreen,
  type KeptScreen,
} from './follow-up-keep';

const loginMachine = loginWith(otpActors);
const OWN_TITLE = new Set([
  'login',
  'notAllowed',
  'upload',
  'preview',
  'sign',
  'submitting',
  'submitFailed',
  'done',
]);
const ROLES_WITH_OWN_HKIC = new Set(['ap', 'rse']);

/** A key for one submission of this flow: the same on a retry, new for the next flow. */
function newIdempotencyKey(): string {
  return `case-${crypto.randomUUID().replace(/-/g, '')}`;
}

/**
 * A follow-up on a submitted case (withdraw, request an inspection ...): the case action machine over the
 * form's definition. Every screen is on the form's route; the machine's state says which one shows.
 */
export default function CaseActionPage({ route }: PageProps) {
  const definition = followUpByRoute(route.path);
  if (!definition) throw new Error(`${route.path} is not a follow-up form`);
  if (route.path === definition.doneRoute) return <CaseActionDone definition={definition} />;
  return <CaseActionFlow key={definition.key} definition={definition} />;
}

function CaseActionFlow({ definition }: { definition: FollowUpDefinition }) {
  const { t } = useTranslation(['case', 'flows', 'auth', 'common', 'appointment']);
  const [search] = useSearchParams();
  const [start] = useState(() => startOfSearch(search));
  // What was typed before a reload or a phone's return from iAM Smart, and the screen it was on (an update
  // form: only what the person changed, laid over the case's information as it is now).
  const [applicationNo] = useState(() => getSession().applicationNo);
  const [kept] = useState(() => keptAnswers(applicationNo, definition.key));
  const resumeAt = useRef<KeptScreen>(kept ? keptScreen(applicationNo, definition.key) : 'fill');
  const listed = useRef(false);
  const machine = useMemo(
    () => caseActionMachine.provide({ actors: caseActors(definition, start) }),
    [definition, start],
  );
  const validate = useCallback(
    (answers: Record<string, unknown>, { calendar, formCode, base }: ValidationContext) =>
      followUpSchema(followUpForCase(definition, formCode) ?? definition, {
        today: calendar.today,
        holidays: new Set(calendar.holidays),
        ...(base ? { base } : {}),
      }).safeParse(answers).success,
    [definition],
  );
  const [snapshot, send] = useMachine(machine, {
    input: {
      hasPreview: definition.steps.some((s) => s.kind === 'preview'),
      hasUpload: definition.steps.some((s) => s.kind === 'upload'),
      hasSign: definition.steps.some((s) => s.kind === 'sign'),
      validate,
      idempotencyKey: newIdempotencyKey(),
      // The menu's choice of type (a revised layout plan) wins over a kept one.
      ...(kept
        ? { initialAnswers: { ...kept, ...(start.documentType ? { documentType: start.documentType } : {}) } }
        : {}),
    },
    ...inspectOptions(),
  });
  const { context: c } = snapshot;
  const screen = Object.values(snapshot.getMeta())
    .map((m) => (m as { screen?: string } | undefined)?.screen)
    .find((s) => s !== undefined);
  // Submit Supporting Document opened from the menu's "Submit Revised Layout Plan" is named so.
  const formTitle = t(
    definition.key === 'submitDocument' && start.documentType === LAYOUT_PLAN_DOCUMENT
      ? 'flows:forms.submitDocument.layoutPlanTitle'
      : `flows:forms.${definition.key}.title`,
  );
  // The form's own screens are titled by the form; the others say what is happening.
  const stepTitle = screen && OWN_TITLE.has(screen) ? t(`case:screens.${screen}`) : formTitle;
  const key = definition.key;
  // The form as it is for this case (an update form takes the sections of the case's application form).
  // Submit Supporting Document answering a request of the department offers the types it asked for.
  const form =
    (c.summary &&
      (c.request && definition.key === 'submitDocument'
        ? submitDocumentFor(c.summary.formCode, c.request.documentTypes)
        : followUpForCase(definition, c.summary.formCode))) ??
    definition;
  const uploadStep = form.steps.find((s) => s.kind === 'upload');
  // An update form opened for a case of another kind (a school's A2 on a centre's form), and the form of
  // the case's kind when the case may be updated now.
  const otherKind =
    definition.versioned &&
    c.summary !== null &&
    followUpForCase(definition, c.summary.formCode) === undefined;
  const otherForm = c.elsewhere ? followUpByRoute(c.elsewhere) : undefined;
  const changes = c.base ? changesOf(form, c.base.answers, c.answers) : [];
  const navigate = useNavigate();
  const done = snapshot.matches('done');
  const typing = (['fill', 'upload', 'preview', 'sign'] as const).some((s) => snapshot.matches(s));
  const at: KeptScreen = snapshot.matches('upload')
    ? 'upload'
    : snapshot.matches('preview') || snapshot.matches('sign')
      ? 'preview'
      : 'fill';
  useEffect(() => {
    if (!c.summary) return;
    if (done) forgetAnswers(c.summary.applicationNo, definition.key);
    else if (typing)
      keepAnswers(
        c.summary.applicationNo,
        definition.key,
        definition.versioned ? changedAnswers(c.base?.answers ?? {}, c.answers) : c.answers,
        at,
      );
  }, [definition, c.summary, c.base, c.answers, done, typing, at]);
  // After a reload: on from the form to the screen it was on, while the answers (and files) allow it.
  useEffect(() => {
    const goal = resumeAt.current;
    if (goal === 'fill') return;
    const valid =
      c.summary &&
      validate(c.answers, {
        calendar: c.calendar,
        formCode: c.summary.formCode,
        base: c.base?.answers ?? null,
      });
    if (snapshot.matches('loading') || snapshot.matches('login')) return;
    if (snapshot.matches('fill') && valid) send({ type: 'step.next' });
    // The files step lists the files from the server first (its first change): on with at least one.
    else if (snapshot.matches('upload') && goal === 'preview' && !listed.current) return;
    else if (snapshot.matches('upload') && goal === 'preview' && c.uploads.length > 0) {
      resumeAt.current = 'fill';
      send({ type: 'step.next' });
    } else resumeAt.current = 'fill';
  }, [snapshot, c, send, validate]);
  const finished = done && definition.doneRoute !== undefined;
  useEffect(() => {
    if (!finished || !c.result || !c.summary || !definition.doneRoute) return;
    const done: UpdateDone = {
      applicationNo: c.summary.applicationNo,
      reference: c.result.reference,
      formCode: c.summary.formCode,
      changes,
    };
    void navigate(definition.doneRoute, { state: { done } });
    // Once, when the flow is done.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [finished]);

  return (
    <article className="content-page flow-step">
      {/* The form's name above the step's heading, unless the heading is the name (said once, not twice). */}
      {stepTitle !== formTitle ? <p className="flow-step__form">{formTitle}</p> : null}
      <PageHeading
        title={stepTitle === formTitle ? formTitle : `${stepTitle} – ${formTitle}`}
        focusKey={String(snapshot.value)}
      >
        {stepTitle}
      </PageHeading>

      {snapshot.matches('loading') || snapshot.matches('submitting') ? <Spinner /> : null}

      {snapshot.matches('loadFailed') ? (
        <div className="notice notice--error" role="alert">
          <p>{t('case:loadFailed')}</p>
          <Button className="button" onPress={() => send({ type: 'flow.retry' })}>
            {t('case:retry')}
          </Button>
        </div>
      ) : null}

      {snapshot.matches('login') ? (
        <>
          <p className="lead">{t('case:login.intro', { form: formTitle })}</p>
          {c.failure?.kind === 'loggedOut' ? (
            <p className="notice notice--info">{t('case:login.again')}</p>
          ) : null}
          <OtpLoginForm
            machine={loginMachine}
            onDone={(session) => {
              startSession(session);
              send({ type: 'login.done' });
            }}
          />
        </>
      ) : null}

      {snapshot.matches('notAllowed') && c.summary ? (
        <CaseNotAllowed
          summary={c.summary}
          formKey={key}
          formTitle={formTitle}
          otherKind={otherKind === true}
          otherForm={otherForm}
          elsewhere={c.elsewhere}
        />
      ) : null}

      {snapshot.matches('fill') && c.summary ? (
        <>
          <p className="lead">{t(`case:intro.${key}`)}</p>
          <CaseSummary summary={c.summary} />
          {c.failure?.kind === 'stale' ? (
            <div className="notice notice--info" role="alert">
              <p>{c.failure.message}</p>
            </div>
          ) : null}
          <FollowUpFill
            definition={form}
            base={c.base?.answers}
            answers={c.answers}
            calendar={c.calendar}
            applicationNo={c.summary.applicationNo}
            showErrors={c.showErrors}
            serverErrors={c.failure?.kind === 'invalid' ? c.failure.fields : {}}
            onChange={(field, value) => send({ type: 'answer.change', field, value })}
            onNext={() => send({ type: 'step.next' })}
            nextLabel={t(c.hasPreview ? 'case:continue' : `case:submit.${key}`)}
          />
        </>
      ) : null}

      {snapshot.matches('upload') && uploadStep?.kind === 'upload' ? (
        <CaseUploadsStep
          followUp={{
            forType: typeof c.answers.documentType === 'string' ? c.answers.documentType : definition.key,
            requestId: c.request?.id ?? null,
          }}
          documents={uploadStep.documents}
          showErrors={c.showErrors}
          onChange={(uploads) => {
            listed.current = true;
            send({ type: 'upload.change', uploads });
          }}
          onBack={() => send({ type: 'step.back' })}
          onNext={() => send({ type: 'step.next' })}
        />
      ) : null}

      {snapshot.matches('sign') && c.summary ? (
        <>
          {c.failure?.kind === 'unsigned' ? (
            <div className="notice notice--error" role="alert">
              <p>{c.failure.message}</p>
            </div>
          ) : null}
          <CaseSignStep
            // A new signing each time the step opens (after a change, the signature no longer holds).
            key={c.uploads.map((u) => u.id).join('-')}
            applicationNo={c.summary.applicationNo}
            signed={{ followUp: definition.key, answers: c.answers, uploads: c.uploads.map((u) => u.id) }}
            needsHkic={ROLES_WITH_OWN_HKIC.has(getSession().role)}
            onSigned={(reference) => send({ type: 'sign.done', reference })}
            onBack={() => send({ type: 'step.back' })}
          />
        </>
      ) : null}

      {snapshot.matches('preview') && c.summary && c.base ? (
        <>
          <p className="lead">{t('case:update.previewIntro')}</p>
          <CaseSummary summary={c.summary} />
          <UpdateChanges definition={form} changes={changes} applicationNo={c.summary.applicationNo} />
          <div className="form__actions">
            <Button className="button" onPress={() => send({ type: 'step.back' })}>
              {t('case:change')}
            </Button>
            <Button className="button button--primary" onPress={() => send({ type: 'step.submit' })}>
              {t(`case:submit.${key}`)}
            </Button>
          </div>
        </>
      ) : null}

      {snapshot.matches('preview') && c.summary && !c.base ? (
        <FollowUpPreview
          definition={form}
          answers={c.answers}
          files={c.uploads}
          summary={c.summary}
          today={c.calendar.today}
          onBack={() => send({ type: 'step.back' })}
          onSubmit={() => send({ type: 'step.submit' })}
          submitLabel={t(c.hasSign ? 'case:signAndSubmit' : `case:submit.${key}`)}
        />
      ) : null}

      {snapshot.matches('submitFailed') ? (
        <div className="notice notice--error" role="alert">
          <p>{c.failure?.kind === 'failed' ? c.failure.message : t('case:submitFailed')}</p>
          <p>{t('case:keptAnswers')}</p>
          <div className="form__actions">
            <Button className="button button--primary" onPress={() => send({ type: 'flow.retry' })}>
              {t('case:retry')}
            </Button>
            <Button className="button" onPress={() => send({ type: 'step.back' })}>
              {t('case:backToForm')}
            </Button>
          </div>
        </div>
      ) : null}

      {snapshot.matches('done') && c.result && c.summary && !definition.doneRoute ? (
        <>
          <div className="notice notice--success" role="status">
            <p>{t(`case:done.${key}`, { applicationNo: c.summary.applicationNo })}</p>
            <p>
              {t('case:done.reference')} <strong>{c.result.reference}</strong>
            </p>
            <p>{t(`case:status.${c.result.status}.next`, { defaultValue: '' })}</p>
          </div>
          <CaseSummary summary={c.summary} />
          <p>
            <Link className="button button--primary" to="/case-history">
              {t('case:toCase')}
            </Link>
            {definition.doneLink ? (
              <Link className="button" to={definition.doneLink.to}>
                {t(definition.doneLink.labelKey)}
              </Link>
            ) : null}
          </p>
        </>
      ) : null}
    </article>
  );
}
