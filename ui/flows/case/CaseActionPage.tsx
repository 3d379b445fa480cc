import { useMemo } from 'react';
import { Button } from 'react-aria-components';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { caseActionMachine } from '../../../machines/flows/case-action.machine';
import { loginOtpMachine } from '../../../machines/flows/login-otp.machine';
import { followUpByRoute, followUpSchema } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { PageHeading } from '../../components/PageHeading';
import { Spinner } from '../../components/Spinner';
import type { PageProps } from '../../pages/registry';
import { startSession } from '../../session/auth';
import { inspectOptions } from '../inspector';
import { OtpLoginForm } from '../login/OtpLoginForm';
import { otpActors } from '../login/otp-actors';
import { caseActors } from './case-actors';
import { CaseSummary } from './CaseSummary';
import { FollowUpFill } from './FollowUpFill';
import { FollowUpPreview } from './FollowUpPreview';

const loginMachine = loginOtpMachine.provide({ actors: otpActors });
const OWN_TITLE = new Set(['login', 'notAllowed', 'preview', 'submitting', 'submitFailed', 'done']);

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
  return <CaseActionFlow key={definition.key} definition={definition} />;
}

function CaseActionFlow({ definition }: { definition: FollowUpDefinition }) {
  const { t } = useTranslation(['case', 'flows', 'auth', 'common']);
  const machine = useMemo(() => caseActionMachine.provide({ actors: caseActors(definition) }), [definition]);
  const [snapshot, send] = useMachine(machine, {
    input: {
      hasPreview: definition.steps.some((s) => s.kind === 'preview'),
      validate: (answers, calendar) =>
        followUpSchema(definition, { today: calendar.today, holidays: new Set(calendar.holidays) }).safeParse(
          answers,
        ).success,
      idempotencyKey: newIdempotencyKey(),
    },
    ...inspectOptions(),
  });
  const { context: c } = snapshot;
  const screen = Object.values(snapshot.getMeta())
    .map((m) => (m as { screen?: string } | undefined)?.screen)
    .find((s) => s !== undefined);
  const formTitle = t(`flows:forms.${definition.key}.title`);
  // The form's own screens are titled by the form; the others say what is happening.
  const stepTitle = screen && OWN_TITLE.has(screen) ? t(`case:screens.${screen}`) : formTitle;
  const key = definition.key;

  return (
    <article className="content-page flow-step">
      <p className="flow-step__form">{formTitle}</p>
      <PageHeading title={`${stepTitle} – ${formTitle}`} focusKey={String(snapshot.value)}>
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
        <>
          <div className="notice notice--info" role="status">
            <p>
              {t(`case:notAllowed.${key}`, {
                applicationNo: c.summary.applicationNo,
                status: t(`auth:history.statuses.${c.summary.status}`, { defaultValue: c.summary.status }),
              })}
            </p>
            <p>{t(`case:status.${c.summary.status}.next`, { defaultValue: '' })}</p>
          </div>
          <CaseSummary summary={c.summary} />
          <p>
            <Link className="button button--primary" to="/case-history">
              {t('case:toCase')}
            </Link>
          </p>
        </>
      ) : null}

      {snapshot.matches('fill') && c.summary ? (
        <>
          <p className="lead">{t(`case:intro.${key}`)}</p>
          <CaseSummary summary={c.summary} />
          <FollowUpFill
            definition={definition}
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

      {snapshot.matches('preview') && c.summary ? (
        <FollowUpPreview
          definition={definition}
          answers={c.answers}
          summary={c.summary}
          today={c.calendar.today}
          onBack={() => send({ type: 'step.back' })}
          onSubmit={() => send({ type: 'step.submit' })}
          submitLabel={t(`case:submit.${key}`)}
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

      {snapshot.matches('done') && c.result && c.summary ? (
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
          </p>
        </>
      ) : null}
    </article>
  );
}
