import { lazy, Suspense, useMemo, useState } from 'react';
import { Button, Form, Radio, RadioGroup } from 'react-aria-components';
import { useMachine, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import {
  appointmentAcceptanceMachine,
  type Channel,
} from '../../../machines/flows/appointment-acceptance.machine';
import { type oneTimeCodeMachine } from '../../../machines/flows/one-time-code.machine';
import { stepOfOneTimeCode } from '../../../machines/flows/one-time-code/types';
import { signingMachine } from '../../../machines/flows/signing.machine';
import { declarationStatement, declarationText } from '../../../machines/rules/appointment';
import { formatCalendarDate } from '../../../machines/rules/dates';
import { isValidHkic, normaliseHkic } from '../../../machines/rules/hkic';
import { isLanguage } from '../../../machines/rules/language';
import { HKIC_INPUT_MAX } from '../../../machines/forms/limits';
import { ErrorSummary } from '../../components/ErrorSummary';
import { PageHeading } from '../../components/PageHeading';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { inspectOptions } from '../inspector';
import { acceptanceActors, declarationSigningActors } from './appointments-api';

import { HkicHolder } from '../signing/hkic-holder';
import { CodeStep } from './CodeStep';

const SignStep = lazy(() => import('../signing/SignStep').then((m) => ({ default: m.SignStep })));
type SigningActor = ActorRefFrom<typeof signingMachine>;
type CodeStepActor = ActorRefFrom<typeof oneTimeCodeMachine>;
const CODE_SCREENS = new Set<string>(['sending', 'codeSent', 'verifying']);

/** The token of the invitation link, from the fragment (`/appointment-accept#<token>`). */
const tokenOfLocation = () => (typeof window === 'undefined' ? '' : window.location.hash.replace(/^#/, ''));

/**
 * `/appointment-accept#<token>`: the appointee's acceptance (machines/flows/appointment-acceptance.machine.ts):
 * the invitation and its case, a one-time password to the appointment's email or mobile (the child
 * `oneTimeCode`, read and told here while it runs), the declaration signed with the signing screens of the
 * application, then acceptance.
 */
export default function AppointmentAcceptPage() {
  const [token] = useState(tokenOfLocation);
  return <Acceptance token={token} />;
}

function Acceptance({ token }: { token: string }) {
  // `auth`: the case statuses in words, as the case pages show them.
  const { t, i18n } = useTranslation(['appointment', 'auth', 'common']);
  const language = isLanguage(i18n.language) ? i18n.language : 'en';
  // What the appointee types as their HKIC, read by the iAM Smart actor when signing starts.
  const [hkic] = useState(() => new HkicHolder());
  const [hkicValue, setHkicValue] = useState('');
  // The HKIC's problem found when iAM Smart was chosen, and how many times it was (the summary's focus).
  const [hkicError, setHkicError] = useState<'hkicRequired' | 'hkicInvalid' | null>(null);
  const [hkicAttempts, setHkicAttempts] = useState(0);
  const hkicProblem = (value: string) =>
    value.trim() === ''
      ? ('hkicRequired' as const)
      : value.length > HKIC_INPUT_MAX || !isValidHkic(normaliseHkic(value))
        ? ('hkicInvalid' as const)
        : null;
  const hkicMessage = hkicError ? t(`accept.errors.${hkicError}`) : null;
  const machine = useMemo(
    () =>
      appointmentAcceptanceMachine.provide({
        actors: {
          ...acceptanceActors(token),
          signDeclaration: signingMachine.provide({
            actors: declarationSigningActors(token, hkic),
          }),
        },
      }),
    [token, hkic],
  );
  const [snapshot, send, actor] = useMachine(machine, {
    input: { token, now: () => Date.now() },
    ...inspectOptions(),
  });
  const signer = useSelector(actor, (s) => s.children.signDeclaration) as SigningActor | undefined;
  const codeStep = useSelector(actor, (s) => s.children.oneTimeCode) as CodeStepActor | undefined;
  const step = useSelector(codeStep, (s) => s);
  const c = snapshot.context;
  // The code step's context while it runs (before the send and after it ends, there is none).
  const k = step?.context;
  const inv = c.invitation;
  const role = inv ? t(`manage.roles.${inv.appointment.identity}`) : '';
  const failed = k?.error ?? c.failure;
  const failure = failed?.message ?? (failed ? t('login.errors.network') : null);
  const sending = !!step?.matches('sending');
  const verifying = !!step?.matches({ codeSent: { code: 'verifying' } });
  const screen = step ? stepOfOneTimeCode(step) : String(snapshot.value);
  // The heading takes focus when the flow moves on (review, signing, accepted ...), not between the code
  // step's own screens: there the code field has it (CodeStep), and a failure is announced as an alert.
  const headingKey = step && CODE_SCREENS.has(screen) ? 'code' : screen;

  return (
    <article className="content-page">
      <PageHeading focusKey={headingKey}>
        {snapshot.matches('accepted')
          ? t('accept.acceptedTitle')
          : snapshot.matches('refused')
            ? t('accept.refusedTitle')
            : t('accept.title')}
      </PageHeading>
      {snapshot.matches('loading') || snapshot.matches('accepting') ? <Spinner /> : null}
      {snapshot.matches('refused') ? (
        <div className="notice notice--error" role="alert">
          <p>{failure}</p>
        </div>
      ) : null}
      {failure && !snapshot.matches('refused') ? (
        <div className="notice notice--error" role="alert">
          <p>{failure}</p>
        </div>
      ) : null}
      {inv && !snapshot.matches('accepted') && !snapshot.matches('refused') ? (
        <>
          <p className="lead">
            {t('accept.intro', {
              applicant: inv.applicantName ?? '',
              role,
              applicationNo: inv.applicationNo,
            })}
          </p>
          <dl className="summary-list">
            <dt>{t('accept.applicationNo')}</dt>
            <dd>{inv.applicationNo}</dd>
            <dt>{t('accept.form')}</dt>
            <dd>{inv.formCode}</dd>
            <dt>{t('accept.status')}</dt>
            <dd>{t(`auth:history.statuses.${inv.caseStatus}`, { defaultValue: inv.caseStatus })}</dd>
            {inv.premisesAddress ? (
              <>
                <dt>{t('accept.premises')}</dt>
                <dd>{inv.premisesAddress}</dd>
              </>
            ) : null}
            <dt>{t('accept.name')}</dt>
            <dd>{inv.appointment.nameEn}</dd>
            <dt>{t('accept.role')}</dt>
            <dd>{role}</dd>
            <dt>{t('accept.registration')}</dt>
            <dd>{inv.appointment.registrationNumber}</dd>
            <dt>{t('accept.expiry')}</dt>
            <dd>
              <time dateTime={inv.appointment.expiryDate}>
                {formatCalendarDate(inv.appointment.expiryDate, language)}
              </time>
            </dd>
          </dl>
        </>
      ) : null}

      {inv && (snapshot.matches('review') || sending) ? (
        <Form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'otp.send' });
          }}
        >
          <RadioGroup
            className="field"
            value={c.channel}
            onChange={(v) => send({ type: 'channel.choose', channel: v as Channel })}
          >
            <span className="field__label">{t('accept.channel')}</span>
            <Radio value="email">{t('accept.channels.email', { email: inv.appointment.email })}</Radio>
            <Radio value="mobile">{t('accept.channels.mobile', { mobile: inv.appointment.mobile })}</Radio>
          </RadioGroup>
          <div className="form__actions">
            {/* Not disabled while sending (focus would drop to the page); the machine ignores a second press. */}
            <Button type="submit" className="button button--primary">
              {t('accept.send')}
            </Button>
          </div>
        </Form>
      ) : null}

      {step?.matches('codeSent') ? (
        <Form
          className="form"
          validationBehavior="aria"
          onSubmit={(e) => {
            e.preventDefault();
            codeStep?.send({ type: 'otp.submit' });
          }}
        >
          <CodeStep
            texts={{
              sent: t('accept.sent', {
                to: c.channel === 'mobile' ? inv?.appointment.mobile : inv?.appointment.email,
              }),
              code: t('accept.code'),
              codeHint: t('accept.codeHint'),
              verify: t('accept.verify'),
              working: t('auth:findMyCase.working'),
              resend: t('accept.resend'),
              change: t('accept.change'),
            }}
            code={k?.code ?? ''}
            errorMessage={k?.showErrors ? t('accept.codeInvalid') : null}
            busy={verifying}
            onCode={(code) => codeStep?.send({ type: 'code.change', code })}
            onResend={() => codeStep?.send({ type: 'otp.send' })}
            onChangeDetails={() => codeStep?.send({ type: 'details.edit' })}
          />
        </Form>
      ) : null}

      {snapshot.matches('signing') && inv ? (
        <section aria-labelledby="declaration-title">
          <ErrorSummary
            title={t('accept.errorTitle')}
            errors={hkicMessage ? [{ fieldId: 'appointee-hkic', message: hkicMessage }] : []}
            focusKey={hkicAttempts}
          />
          <h2 id="declaration-title">{t('accept.declarationTitle')}</h2>
          <p>{t('accept.declarationIntro')}</p>
          <blockquote className="declaration">
            {/* What is signed, in the page's language: the text the signing's digest is made from. */}
            <p>
              {declarationStatement(
                declarationText(
                  {
                    applicationNo: inv.applicationNo,
                    identity: inv.appointment.identity,
                    nameEn: inv.appointment.nameEn,
                    registrationNumber: inv.appointment.registrationNumber,
                    expiryDate: inv.appointment.expiryDate,
                    appointmentId: inv.appointment.id,
                  },
                  language,
                ),
              )}
            </p>
          </blockquote>
          <p>{t('accept.signIntro')}</p>
          <TextField
            id="appointee-hkic"
            label={t('accept.hkic')}
            description={t('accept.hkicHint')}
            errorMessage={hkicMessage}
            value={hkicValue}
            onChange={(v) => {
              hkic.set(v);
              setHkicValue(v);
              // A correction clears the message once the number is valid; focus stays in the field.
              if (hkicError && hkicProblem(v) === null) setHkicError(null);
            }}
            autoComplete="off"
            maxLength={HKIC_INPUT_MAX}
          />
          {/* Its own boundary: the signing screens' code, loaded now, must not hide the page (and drop the
              focus its heading just took) while it comes. */}
          <Suspense fallback={<Spinner />}>
            {signer ? (
              <SignStep
                actor={signer}
                wording="appointment"
                hkic={{
                  missing: hkicValue.trim() === '',
                  onEnter: () => document.getElementById('appointee-hkic')?.focus(),
                  check: () => {
                    const problem = hkicProblem(hkicValue);
                    setHkicError(problem);
                    if (problem) setHkicAttempts((n) => n + 1);
                    return problem === null;
                  },
                }}
              />
            ) : null}
          </Suspense>
        </section>
      ) : null}

      {snapshot.matches('acceptFailed') ? (
        <div className="form__actions">
          <Button className="button button--primary" onPress={() => send({ type: 'flow.retry' })}>
            {t('accept.retry')}
          </Button>
        </div>
      ) : null}

      {snapshot.matches('accepted') && inv ? (
        <>
          <div className="notice notice--success" role="status">
            <p>{t('accept.accepted', { role, applicationNo: inv.applicationNo })}</p>
          </div>
          <p>
            <Link className="button button--primary" to="/appointee-login">
              {t('accept.toLogin')}
            </Link>
          </p>
        </>
      ) : null}
    </article>
  );
}
