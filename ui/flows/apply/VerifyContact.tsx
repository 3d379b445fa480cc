import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import i18next from 'i18next';
import type { LoginSession } from '../../../machines/flows/login-otp.machine';
import type {
  SendCodeInput,
  SendCodeOutput,
  VerifyCodeInput,
  VerifyCodeOutput,
} from '../../../machines/flows/one-time-code/types';
import { api } from '../../api';
import { RadioField } from '../../components/ChoiceFields';
import { OtpLoginForm } from '../login/OtpLoginForm';
import { loginWith, otpFailure } from '../login/otp-actors';
import { draftAuth } from '../../api/draft-auth';
import type { ContactChannel, VerifiedContacts } from '../../../machines/rules/drafts';
import { type ContactParty, PARTY_CHANNELS } from '../../../machines/rules/contacts';

type Kind = 'email' | 'mobile';

const path = (applicationNo: string, action: string) =>
  `drafts/${encodeURIComponent(applicationNo)}/contact/${action}`;

/**
 * The code step's actors over the draft's contact endpoints: the same one-time code service, its own purpose.
 * The draft's number is the one the form is for (the login machine sends it as well).
 */
function contactActors(applicationNo: string, channel: ContactChannel) {
  return {
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async () => {
      try {
        const body = { channel, lang: i18next.language };
        return (
          await api.post<SendCodeOutput>(path(applicationNo, 'send'), body, {
            quiet: true,
            ky: draftAuth(applicationNo),
          })
        ).data;
      } catch (e) {
        throw otpFailure(e);
      }
    }),
    verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(async ({ input }) => {
      try {
        const body = { channel, code: input.code, lang: i18next.language };
        await api.post(path(applicationNo, 'verify'), body, {
          quiet: true,
          ky: draftAuth(applicationNo),
        });
        const confirmed: LoginSession = {
          token: '',
          applicationNo,
          role: 'contact',
          userId: channel,
          idleTimeoutMinutes: 0,
        };
        return confirmed;
      } catch (e) {
        throw otpFailure(e);
      }
    }),
  };
}

/**
 * Confirming the email or mobile of the applicant, or of the contact person, with a one-time code before
 * submission (spec §4; machines/rules/contacts.ts says who must confirm). It reuses the login machine with
 * the draft's number and the contact already known.
 */
export function VerifyContact({
  applicationNo,
  party = 'applicant',
  email,
  mobile,
  onVerified,
  error,
}: {
  applicationNo: string;
  party?: ContactParty;
  email: string;
  mobile: string;
  /** Told the confirmed contacts (of every party), each time they are learnt from the server. */
  onVerified?: (verified: VerifiedContacts) => void;
  /** Shown when the applicant tried to go on without a confirmed contact of this party. */
  error?: string;
}) {
  const { t } = useTranslation('wizard');
  const [verified, setVerified] = useState<VerifiedContacts>({});
  const [kind, setKind] = useState<Kind>(email ? 'email' : 'mobile');
  const [round, setRound] = useState(0);
  const channels = PARTY_CHANNELS[party];
  const channel = channels[kind];
  const machine = useMemo(() => loginWith(contactActors(applicationNo, channel)), [applicationNo, channel]);
  const person = party === 'contactPerson';
  const ids = person
    ? {
        title: 'verify-contact-person-title',
        error: 'verify-contact-person-error',
        radio: 'verify-contact-person-channel',
      }
    : { title: 'verify-contact-title', error: 'verify-contact-error', radio: 'verify-contact-channel' };

  useEffect(() => {
    let live = true;
    api
      .get<{ verifiedContacts?: VerifiedContacts }>(
        `drafts/${encodeURIComponent(applicationNo)}`,
        undefined,
        {
          quiet: true,
          noLoading: true,
          ky: draftAuth(applicationNo),
        },
      )
      .then((answer) => {
        if (!live) return;
        const found = answer.data.verifiedContacts ?? {};
        setVerified(found);
        onVerified?.(found);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [applicationNo, round, onVerified]);

  const done = [channels.email, channels.mobile].flatMap((c) =>
    verified[c] ? [[c, verified[c]] as const] : [],
  );
  const contact = kind === 'email' ? email : mobile;
  return (
    <section className="notice notice--info verify-contact" data-party={party} aria-labelledby={ids.title}>
      <h2 id={ids.title}>{t(person ? 'contact.personTitle' : 'contact.title')}</h2>
      {error && done.length === 0 ? (
        <p className="field__error" role="alert" id={ids.error}>
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
          <p>{t(person ? 'contact.personIntro' : 'contact.intro')}</p>
          {!email && !mobile ? (
            <p>{t('contact.missing')}</p>
          ) : (
            <>
              {email && mobile ? (
                <RadioField
                  id={ids.radio}
                  label={t('contact.channel')}
                  value={kind}
                  onChange={(v) => setKind(v === 'mobile' ? 'mobile' : 'email')}
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
