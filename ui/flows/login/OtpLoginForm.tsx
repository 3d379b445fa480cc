import { useEffect, useId, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useMachine, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import {
  isApplicationNoValid,
  isContactValid,
  type LoginSession,
} from '../../../machines/flows/login-otp.machine';
import { isCodeValid } from '../../../machines/flows/one-time-code/types';
import { normaliseDigits } from '../../../machines/rules/otp';
import { TextField } from '../../components/TextField';
import { ErrorSummary, type SummaryError } from '../../components/ErrorSummary';
import { inspectOptions } from '../inspector';
import type { loginWith } from './otp-actors';
import { maskContact } from './masked-contact';

type OtpMachine = ReturnType<typeof loginWith>;

interface Props {
  /** The login machine with its actors (Find my case, or resuming a saved application). */
  machine: OtpMachine;
  /** The label of the application number field, when it is not "BD Application Number". */
  applicationNoLabel?: string;
  /** What to do with the session once the code is verified. */
  onDone: (session: LoginSession) => void;
  /**
   * Details already known (confirming a contact of a draft): the two fields are not shown, the send
   * button and the sent notice say what is being confirmed.
   */
  fixed?: { applicationNo: string; contact: string; sendLabel: string; sentText: string };
}

/**
 * The one-time code form of the login machine: application number and contact, Send OTP Code, the
 * code with Resend OTP after its countdown, Submit. The details are the login machine's; the code step is
 * its child `oneTimeCode` (machines/flows/one-time-code.machine.ts), read and told here while it runs.
 * Every state of both machines has its rendering here.
 */
export function OtpLoginForm({ machine, applicationNoLabel, onDone, fixed }: Props) {
  const { t } = useTranslation('auth');
  const [snapshot, send, actor] = useMachine(machine, {
    input: { now: () => Date.now(), applicationNo: fixed?.applicationNo, contact: fixed?.contact },
    ...inspectOptions(),
  });
  const codeStep = useSelector(actor, (s) => s.children.oneTimeCode);
  const step = useSelector(codeStep, (s) => s);
  const [attempt, setAttempt] = useState(0);
  const ids = { applicationNo: useId(), contact: useId(), code: useId(), sent: useId() };
  const { context: c } = snapshot;
  // The code step's context while it runs (before the first send and after it ends, there is none).
  const k = step?.context;
  const error = k?.error ?? c.error;

  const done = snapshot.status === 'done';
  useEffect(() => {
    if (done && c.session) onDone(c.session);
    // onDone is called once, when the machine is done.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [done, c.session]);

  const inCodeStep =
    !!step &&
    (step.matches('codeSent') || (step.matches('networkError') && step.context.pendingRequest === 'verify'));
  const busy = !!step && (step.matches('sending') || step.matches({ codeSent: { code: 'verifying' } }));
  const waiting = !!step && (step.matches('locked') || step.matches('rateLimited'));

  const fieldErrors = {
    applicationNo: !c.showErrors
      ? null
      : !c.applicationNo.trim()
        ? t('findMyCase.applicationNo.required')
        : !isApplicationNoValid(c.applicationNo)
          ? t('findMyCase.applicationNo.invalid')
          : null,
    contact: !c.showErrors
      ? null
      : !c.contact.trim()
        ? t('findMyCase.contact.required')
        : !isContactValid(c.contact)
          ? t('findMyCase.contact.invalid')
          : null,
    code:
      !k?.showErrors || !inCodeStep
        ? null
        : !k.code
          ? t('findMyCase.code.required')
          : !isCodeValid(k.code)
            ? t('findMyCase.code.invalid')
            : null,
  };
  const minutes = Math.max(1, Math.ceil((k?.retryAfterSeconds ?? 0) / 60));
  const flowError = (() => {
    const e = error;
    if (!e) return null;
    switch (e.kind) {
      case 'wrongCode':
        return t('findMyCase.errors.wrongCode', { count: e.attemptsLeft });
      case 'expired':
        return t('findMyCase.errors.expired');
      case 'burnt':
        return t('findMyCase.errors.burnt');
      case 'locked':
        return t('findMyCase.errors.locked', { minutes });
      case 'rateLimited':
        return t('findMyCase.errors.rateLimited', { minutes });
      case 'network':
        return t('findMyCase.errors.network');
      case 'invalid':
        return e.message || t('findMyCase.errors.invalid');
    }
  })();
  const summary: SummaryError[] = [
    ...(fieldErrors.applicationNo
      ? [{ fieldId: ids.applicationNo, message: fieldErrors.applicationNo }]
      : []),
    ...(fieldErrors.contact ? [{ fieldId: ids.contact, message: fieldErrors.contact }] : []),
    ...(fieldErrors.code ? [{ fieldId: ids.code, message: fieldErrors.code }] : []),
    ...(flowError ? [{ message: flowError }] : []),
  ];

  const resendable = !!step?.matches({ codeSent: { resend: 'resendable' } });
  const needNewCode =
    !!step &&
    (step.matches({ codeSent: { code: 'codeExpired' } }) ||
      step.matches({ codeSent: { code: 'codeBurnt' } }));

  return (
    <>
      <ErrorSummary
        title={t('findMyCase.errorTitle')}
        errors={summary}
        focusKey={`${attempt}-${error?.kind ?? ''}-${k?.attemptsLeft ?? ''}`}
      />

      <Form
        className="form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          setAttempt((a) => a + 1);
          if (inCodeStep) codeStep?.send({ type: 'otp.submit' });
          else send({ type: 'otp.send' });
        }}
      >
        {fixed ? null : (
          <>
            <TextField
              id={ids.applicationNo}
              label={applicationNoLabel ?? t('findMyCase.applicationNo.label')}
              description={t('findMyCase.applicationNo.description')}
              errorMessage={fieldErrors.applicationNo}
              value={c.applicationNo}
              onChange={(v) => send({ type: 'details.change', applicationNo: v })}
              isReadOnly={inCodeStep || busy || waiting}
              autoComplete="off"
              spellCheck="false"
              name="applicationNo"
            />
            <TextField
              id={ids.contact}
              label={t('findMyCase.contact.label')}
              description={t('findMyCase.contact.description')}
              errorMessage={fieldErrors.contact}
              value={c.contact}
              onChange={(v) => send({ type: 'details.change', contact: v })}
              isReadOnly={inCodeStep || busy || waiting}
              autoComplete="email"
              spellCheck="false"
              name="contact"
            />
          </>
        )}
        {inCodeStep ? (
          <>
            {/* The Send button is gone: focus goes to the code field, which the notice describes, so a
                screen reader says where the code went (docs/flows/one-time-code.md, "Focus"). */}
            <p id={ids.sent} className="notice notice--info">
              {fixed?.sentText ?? t('findMyCase.sent', { to: maskContact(c.contact) })}
            </p>
            <TextField
              id={ids.code}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the focused Send button was just removed
              autoFocus
              aria-describedby={ids.sent}
              label={t('findMyCase.code.label')}
              description={t('findMyCase.code.description')}
              errorMessage={fieldErrors.code}
              value={k?.code ?? ''}
              onChange={(v) => codeStep?.send({ type: 'code.change', code: normaliseDigits(v) })}
              inputMode="numeric"
              autoComplete="one-time-code"
              name="otp"
              size={8}
              isDisabled={needNewCode}
            />
            <div className="form__actions">
              {/* Never disabled while verifying (focus would drop to the page); the machine ignores a second
                  press then. */}
              <Button type="submit" className="button button--primary" isDisabled={needNewCode}>
                {busy ? t('findMyCase.working') : t('findMyCase.submit')}
              </Button>
              <Button
                className="button"
                isDisabled={!resendable}
                onPress={() => codeStep?.send({ type: 'otp.resend' })}
              >
                {t('findMyCase.resend')}
              </Button>
              {!resendable ? (
                <span className="countdown" aria-live="off">
                  {t('findMyCase.resendIn', { seconds: k?.secondsLeft ?? 0 })}
                </span>
              ) : null}
            </div>
            {fixed ? null : (
              <Button
                className="button button--link"
                onPress={() => codeStep?.send({ type: 'details.edit' })}
              >
                {t('findMyCase.changeDetails')}
              </Button>
            )}
          </>
        ) : (
          <div className="form__actions">
            {/* Not disabled while sending: a disabled button would drop focus to the page; the machine ignores
                a second press then. */}
            <Button type="submit" className="button button--primary" isDisabled={waiting}>
              {busy ? t('findMyCase.working') : (fixed?.sendLabel ?? t('findMyCase.send'))}
            </Button>
          </div>
        )}
        {step?.matches('networkError') ? (
          <div className="form__actions">
            <Button className="button" onPress={() => codeStep?.send({ type: 'otp.retry' })}>
              {t('findMyCase.retry')}
            </Button>
          </div>
        ) : null}
      </Form>
      {fixed ? null : <p className="field__hint">{t('findMyCase.help')}</p>}
    </>
  );
}
