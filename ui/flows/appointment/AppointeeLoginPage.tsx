import { useEffect } from 'react';
import { Button, Form } from 'react-aria-components';
import { useMachine, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import {
  appointeeLoginMachine,
  isContactValid,
  isRegistrationValid,
} from '../../../machines/flows/appointee-login.machine';
import { type oneTimeCodeMachine } from '../../../machines/flows/one-time-code.machine';
import { stepOfOneTimeCode } from '../../../machines/flows/one-time-code/types';
import { ErrorSummary } from '../../components/ErrorSummary';
import { PageHeading } from '../../components/PageHeading';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { startSession } from '../../session/auth';
import { updateSession } from '../../session/store';
import { inspectOptions } from '../inspector';
import { appointeeActors } from './appointments-api';
import { CodeStep } from './CodeStep';
import { maskContact } from '../login/masked-contact';

const machine = appointeeLoginMachine.provide({ actors: appointeeActors });
type CodeStepActor = ActorRefFrom<typeof oneTimeCodeMachine>;

/**
 * `/appointee-login`: the AP/RSE login (machines/flows/appointee-login.machine.ts): registration number and
 * contact, a one-time password (the login's child `oneTimeCode`, read and told here while it runs), then the
 * applications they are appointed to; the chosen one opens on the case page, with the role's routes and
 * buttons in the session.
 */
export default function AppointeeLoginPage() {
  const { t } = useTranslation(['appointment', 'auth', 'common']);
  const navigate = useNavigate();
  const [snapshot, send, actor] = useMachine(machine, {
    input: { now: () => Date.now() },
    ...inspectOptions(),
  });
  const codeStep = useSelector(actor, (s) => s.children.oneTimeCode) as CodeStepActor | undefined;
  const step = useSelector(codeStep, (s) => s);
  const c = snapshot.context;
  // The code step's context while it runs (before the send and after it ends, there is none).
  const k = step?.context;
  const inCode = !!step?.matches('codeSent');
  const busy =
    (!!step && (step.matches('sending') || step.matches({ codeSent: { code: 'verifying' } }))) ||
    snapshot.matches('selecting');
  const showErrors = k ? k.showErrors : c.showErrors;
  const failure = k?.error ?? c.failure;

  // The session starts as soon as the code is right (its case: the newest appointment).
  useEffect(() => {
    if (c.session) startSession(c.session);
  }, [c.session]);
  useEffect(() => {
    if (!snapshot.matches('done') || !c.chosen) return;
    updateSession((s) => ({ ...s, applicationNo: c.chosen ?? s.applicationNo }));
    void navigate('/case-history');
  }, [snapshot, c.chosen, navigate]);

  const errors = {
    registrationNumber:
      showErrors && !inCode && !isRegistrationValid(c.registrationNumber)
        ? t('login.registrationInvalid')
        : null,
    contact: showErrors && !inCode && !isContactValid(c.contact) ? t('login.contactInvalid') : null,
    code: showErrors && inCode ? t('login.codeInvalid') : null,
  };
  // The API's own words for a refusal it explained; the screen's for the kinds it tells apart.
  const flowError = !failure
    ? null
    : failure.kind === 'invalid' && failure.message
      ? failure.message
      : t(`login.errors.${failure.kind}`, { minutes: 15 });
  // Where the person is: the login's state, or the code step's while it runs.
  const where = step ? stepOfOneTimeCode(step) : String(snapshot.value);

  return (
    <article className="content-page">
      <PageHeading focusKey={snapshot.matches('chooseCase') ? 'cases' : undefined}>
        {snapshot.matches('chooseCase') || snapshot.matches('selecting')
          ? t('login.casesTitle')
          : t('login.title')}
      </PageHeading>
      <ErrorSummary
        title={t('auth:findMyCase.errorTitle')}
        errors={[
          ...(errors.registrationNumber
            ? [{ fieldId: 'appointee-registration', message: errors.registrationNumber }]
            : []),
          ...(errors.contact ? [{ fieldId: 'appointee-contact', message: errors.contact }] : []),
          ...(errors.code ? [{ fieldId: 'appointee-code', message: errors.code }] : []),
          ...(flowError ? [{ message: flowError }] : []),
        ]}
        focusKey={`${where}-${failure?.kind ?? ''}-${showErrors}`}
      />
      {busy ? <Spinner /> : null}

      {snapshot.matches('chooseCase') || snapshot.matches('selecting') ? (
        <>
          <p className="lead">{t('login.casesIntro')}</p>
          <ul className="appointment-list">
            {(c.session?.cases ?? []).map((k) => (
              <li key={k.applicationNo} className="appointment-card">
                <h2>{k.applicationNo}</h2>
                <p>
                  {t('login.caseLine', {
                    form: k.formCode,
                    status: t(`auth:history.statuses.${k.status}`, { defaultValue: k.status }),
                    role: t(`manage.roles.${k.identity}`),
                  })}
                </p>
                <Button
                  className="button button--primary"
                  onPress={() => send({ type: 'case.choose', applicationNo: k.applicationNo })}
                >
                  {t('login.open', { applicationNo: k.applicationNo })}
                </Button>
              </li>
            ))}
          </ul>
        </>
      ) : snapshot.matches('done') ? null : (
        <>
          <p className="lead">{t('login.intro')}</p>
          <Form
            className="form"
            validationBehavior="aria"
            onSubmit={(e) => {
              e.preventDefault();
              if (inCode) codeStep?.send({ type: 'otp.submit' });
              else send({ type: 'otp.send' });
            }}
          >
            <TextField
              id="appointee-registration"
              label={t('login.registration')}
              description={t('login.registrationHint')}
              value={c.registrationNumber}
              onChange={(v) => send({ type: 'details.change', registrationNumber: v })}
              isReadOnly={inCode || busy}
              errorMessage={errors.registrationNumber}
              autoComplete="off"
              name="registrationNumber"
            />
            <TextField
              id="appointee-contact"
              label={t('login.contact')}
              description={t('login.contactHint')}
              value={c.contact}
              onChange={(v) => send({ type: 'details.change', contact: v })}
              isReadOnly={inCode || busy}
              errorMessage={errors.contact}
              autoComplete="email"
              name="contact"
            />
            {inCode ? (
              <CodeStep
                id="appointee-code"
                texts={{
                  sent: t('login.sent', { to: maskContact(c.contact) }),
                  code: t('login.code'),
                  verify: t('login.verify'),
                  working: t('auth:findMyCase.working'),
                  resend: t('login.resend'),
                  change: t('login.change'),
                }}
                code={k?.code ?? ''}
                errorMessage={errors.code}
                busy={busy}
                onCode={(code) => codeStep?.send({ type: 'code.change', code })}
                onResend={() => codeStep?.send({ type: 'otp.send' })}
                onChangeDetails={() => codeStep?.send({ type: 'details.edit' })}
              />
            ) : (
              <div className="form__actions">
                {/* Not disabled while sending: a disabled button would drop focus to the page; the machine
                    ignores a second press then. */}
                <Button type="submit" className="button button--primary">
                  {t('login.send')}
                </Button>
              </div>
            )}
          </Form>
        </>
      )}
    </article>
  );
}
