import { useEffect, useMemo, useState } from 'react';
import { draftAuth } from '../../api/draft-auth';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import i18next from 'i18next';
import {
  loginOtpMachine,
  type LoginSession,
  type SendCodeInput,
  type SendCodeOutput,
  type VerifyCodeInput,
} from '../../../machines/flows/login-otp.machine';
import { api } from '../../api';
import { RadioField } from '../../components/ChoiceFields';
import { OtpLoginForm } from '../login/OtpLoginForm';
import { otpFailure } from '../login/otp-actors';

type Channel = 'email' | 'mobile';
type Verified = Partial<Record<Channel, string>>;

const path = (applicationNo: string, action: string) =>
  `drafts/${encodeURIComponent(applicationNo)}/contact/${action}`;

/** The login machine's actors over the draft's contact endpoints: the same one-time code service, its own purpose. */
function contactActors(channel: Channel) {
  return {
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async ({ input }) => {
      try {
        const body = { channel, lang: i18next.language };
        return (
          await api.post<SendCodeOutput>(path(input.applicationNo, 'send'), body, {
            quiet: true,
            ky: draftAuth(input.applicationNo),
          })
        ).data;
      } catch (e) {
        throw otpFailure(e);
      }
    }),
    verifyCode: fromPromise<LoginSession, VerifyCodeInput>(async ({ input }) => {
      try {
        const body = { channel, code: input.code, lang: i18next.language };
        await api.post(path(input.applicationNo, 'verify'), body, {
          quiet: true,
          ky: draftAuth(input.applicationNo),
        });
        return {
          token: '',
          applicationNo: input.applicationNo,
          role: 'contact',
          userId: channel,
          idleTimeoutMinutes: 0,
        };
      } catch (e) {
        throw otpFailure(e);
      }
    }),
  };
}

/**
 * Confirming the applicant's email or mobile with a one-time code before submission (issue: verified
 * contacts). It reuses the login machine with the draft's number and the contact already known.
 */
export function VerifyContact({
  applicationNo,
  email,
  mobile,
  onVerified,
  error,
}: {
  applicationNo: string;
  email: string;
  mobile: string;
  /** Told whether a contact is confirmed, each time that is learnt from the server. */
  onVerified?: (verified: boolean) => void;
  /** Shown when the applicant tried to go on without a confirmed contact. */
  error?: string;
}) {
  const { t } = useTranslation('wizard');
  const [verified, setVerified] = useState<Verified>({});
  const [channel, setChannel] = useState<Channel>(email ? 'email' : 'mobile');
  const [round, setRound] = useState(0);
  const machine = useMemo(() => loginOtpMachine.provide({ actors: contactActors(channel) }), [channel]);

  useEffect(() => {
    let live = true;
    api
      .get<{ verifiedContacts?: Verified }>(`drafts/${encodeURIComponent(applicationNo)}`, undefined, {
        quiet: true,
        noLoading: true,
        ky: draftAuth(applicationNo),
      })
      .then((answer) => {
        if (!live) return;
        const found = answer.data.verifiedContacts ?? {};
        setVerified(found);
        onVerified?.(Boolean(found.email || found.mobile));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [applicationNo, round, onVerified]);

  const done = Object.entries(verified).filter(([, v]) => Boolean(v));
  const contact = channel === 'email' ? email : mobile;
  return (
    <section className="notice notice--info verify-contact" aria-labelledby="verify-contact-title">
      <h2 id="verify-contact-title">{t('contact.title')}</h2>
      {error && done.length === 0 ? (
        <p className="field__error" role="alert" id="verify-contact-error">
          {error}
        </p>
      ) : null}
      {done.length > 0 ? (
        <ul className="verify-contact__done">
          {done.map(([c, v]) => (
            <li key={c}>
              <span aria-hidden="true">✓ </span>
              {t('contact.verified', { to: v })}
            </li>
          ))}
        </ul>
      ) : null}
      {done.length === 0 ? (
        <>
          <p>{t('contact.intro')}</p>
          {!email && !mobile ? (
            <p>{t('contact.missing')}</p>
          ) : (
            <>
              {email && mobile ? (
                <RadioField
                  id="verify-contact-channel"
                  label={t('contact.channel')}
                  value={channel}
                  onChange={(v) => setChannel(v === 'mobile' ? 'mobile' : 'email')}
                  options={[
                    { value: 'email', label: t('contact.email', { to: email }) },
                    { value: 'mobile', label: t('contact.mobile', { to: mobile }) },
                  ]}
                />
              ) : null}
              <OtpLoginForm
                key={channel}
                machine={machine}
                fixed={{
                  applicationNo,
                  contact,
                  sendLabel: t('contact.send'),
                  sentText: t('contact.sent', { to: contact }),
                }}
                onDone={() => setRound((r) => r + 1)}
              />
            </>
          )}
        </>
      ) : null}
    </section>
  );
}
