import { useEffect, useMemo, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  appointeeContactMachine,
  type ContactChangeFailure,
  isNewContactValid,
} from '../../../machines/flows/appointee-contact.machine';
import { isCodeValid } from '../../../machines/flows/one-time-code/types';
import { isLoggedIn } from '../../../machines/rules/session-state';
import { RadioField } from '../../components/ChoiceFields';
import { ErrorSummary, focusField, useRefusalCount } from '../../components/ErrorSummary';
import { PageHeading } from '../../components/PageHeading';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { normaliseDigits } from '../../../machines/rules/otp';
import { useSession } from '../../session/store';
import { inspectOptions } from '../inspector';
import { contactChangeActors } from './appointments-api';
import { keepContact, keptContact } from './contact-kept';

const machine = appointeeContactMachine.provide({ actors: contactChangeActors });

const IDS = {
  kind: 'contact-kind',
  contact: 'contact-new',
  oldCode: 'contact-old-code',
  newCode: 'contact-new-code',
} as const;

/** The hour and minute a wait ends, in Hong Kong time (what a person in Hong Kong reads). */
function timeAfter(seconds: number, language: string): string {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-HK' : language === 'sc' ? 'zh-CN' : 'zh-HK', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Asia/Hong_Kong',
  }).format(new Date(Date.now() + seconds * 1000));
}

/**
 * `/appointee-contact`: a logged-in AP or RSE changes the email or mobile the department holds for their
 * registration number (machines/flows/appointee-contact.machine.ts, docs/flows/appointee-contact.md): the new
 * contact, then the code sent to the contact on file and the one sent to the new one, then what changed.
 * Refusals are shown at their field and in the error summary, which takes focus on each new refusal, never
 * while the person types; after the codes are sent, focus goes to the first code field.
 */
export default function AppointeeContactPage() {
  const { t, i18n } = useTranslation(['appointment', 'common']);
  const loggedIn = useSession(isLoggedIn);
  const role = useSession((s) => s.role);
  const [snapshot, send] = useMachine(machine, inspectOptions());
  const c = snapshot.context;
  const [tries, setTries] = useState(0);
  const inCodes =
    snapshot.matches('enterCodes') || snapshot.matches('resending') || snapshot.matches('verifying');
  const busy = snapshot.matches('sending') || snapshot.matches('resending') || snapshot.matches('verifying');
  const kindName = t(`contact.names.${c.kind}`);
  const newContact = c.sentTo ?? c.contact.trim();

  // A reload comes back to the new contact as typed (this tab only; the codes are sent again).
  useEffect(() => {
    const kept = keptContact();
    if (!kept) return;
    send({ type: 'kind.choose', kind: kept.kind });
    send({ type: 'contact.change', contact: kept.contact });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the page's first render
  }, []);
  const done = snapshot.matches('done');
  useEffect(() => {
    keepContact(done ? null : { kind: c.kind, contact: c.contact });
  }, [done, c.kind, c.contact]);

  // The codes are sent (first time or again): the first code field, whose label says where it went.
  useEffect(() => {
    if (c.sends > 0) focusField(IDS.oldCode);
  }, [c.sends]);

  // Worked out once per refusal (the time a wait ends does not move while the person reads it).
  const fieldErrors = useMemo(
    () =>
      refusalFields(c.failure, {
        kindName,
        contact: newContact,
        t: (key, params) => t(key, params),
        time: (s) => timeAfter(s, i18n.language),
      }),
    [c.failure, kindName, newContact, t, i18n.language],
  );
  const refusals = useRefusalCount(fieldErrors);

  if (!loggedIn || (role !== 'ap' && role !== 'rse') || snapshot.matches('loggedOut')) {
    return (
      <article className="content-page">
        <PageHeading>{t('contact.title')}</PageHeading>
        <p role={snapshot.matches('loggedOut') ? 'alert' : undefined}>
          {snapshot.matches('loggedOut') ? t('contact.errors.loggedOut') : t('contact.loginFirst')}
        </p>
        <p>
          <Link className="button button--primary" to="/appointee-login">
            {t('contact.login')}
          </Link>
        </p>
      </article>
    );
  }

  if (snapshot.matches('done') && c.result) {
    return (
      <article className="content-page">
        <PageHeading focusKey="done">{t('contact.doneTitle')}</PageHeading>
        <div className="notice notice--success" role="status">
          <p>{t('contact.done', { kind: kindName, contact: c.result[c.kind] })}</p>
        </div>
        <p>{t('contact.doneWhat', { kind: kindName })}</p>
        <p>
          <Link className="button button--primary" to="/case-history">
            {t('contact.back')}
          </Link>
        </p>
      </article>
    );
  }

  const invalid = {
    contact: c.showErrors && !inCodes && !isNewContactValid(c.kind, c.contact),
    oldCode: c.showErrors && inCodes && !isCodeValid(c.oldCode),
    newCode: c.showErrors && inCodes && !isCodeValid(c.newCode),
  };
  const errors = {
    contact: invalid.contact ? t(`contact.contactInvalid.${c.kind}`) : (fieldErrors.contact ?? null),
    oldCode: invalid.oldCode ? t('contact.codeInvalid') : (fieldErrors.oldCode ?? null),
    newCode: invalid.newCode ? t('contact.codeInvalid') : (fieldErrors.newCode ?? null),
  };
  const summary = [
    ...(errors.contact ? [{ fieldId: IDS.contact, message: errors.contact }] : []),
    ...(errors.oldCode ? [{ fieldId: IDS.oldCode, message: errors.oldCode }] : []),
    ...(errors.newCode && errors.newCode !== errors.oldCode
      ? [{ fieldId: IDS.newCode, message: errors.newCode }]
      : []),
    ...(fieldErrors.form ? [{ message: fieldErrors.form }] : []),
  ];

  return (
    <article className="content-page">
      <PageHeading>{inCodes ? t('contact.codesTitle') : t('contact.title')}</PageHeading>
      <ErrorSummary title={t('contact.errorTitle')} errors={summary} focusKey={`${tries}-${refusals}`} />
      {busy ? <Spinner /> : null}
      <Form
        className="form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          setTries((n) => n + 1);
          send({ type: inCodes ? 'codes.verify' : 'codes.send' });
        }}
      >
        {inCodes ? (
          <>
            <p className="notice notice--info" role="status">
              {t('contact.sent', { kind: kindName, contact: newContact })}
            </p>
            <TextField
              id={IDS.oldCode}
              label={t('contact.oldCode', { kind: kindName })}
              value={c.oldCode}
              onChange={(v) => send({ type: 'code.change', field: 'oldCode', code: normaliseDigits(v) })}
              errorMessage={errors.oldCode}
              inputMode="numeric"
              autoComplete="one-time-code"
              name="oldCode"
              size={8}
            />
            <TextField
              id={IDS.newCode}
              label={t('contact.newCode', { contact: newContact })}
              value={c.newCode}
              onChange={(v) => send({ type: 'code.change', field: 'newCode', code: normaliseDigits(v) })}
              errorMessage={errors.newCode}
              inputMode="numeric"
              autoComplete="off"
              name="newCode"
              size={8}
            />
            <div className="form__actions">
              <Button type="submit" className="button button--primary" isDisabled={busy}>
                {t('contact.verify', { kind: kindName })}
              </Button>
              <Button className="button" isDisabled={busy} onPress={() => send({ type: 'codes.resend' })}>
                {t('contact.resend')}
              </Button>
              <Button
                className="button button--link"
                isDisabled={busy}
                onPress={() => send({ type: 'contact.edit' })}
              >
                {t('contact.change', { kind: kindName })}
              </Button>
            </div>
          </>
        ) : (
          <>
            <p className="lead">{t('contact.intro')}</p>
            <RadioField
              id={IDS.kind}
              label={t('contact.kind')}
              value={c.kind}
              onChange={(v) => send({ type: 'kind.choose', kind: v === 'mobile' ? 'mobile' : 'email' })}
              options={[
                { value: 'email', label: t('contact.kinds.email') },
                { value: 'mobile', label: t('contact.kinds.mobile') },
              ]}
            />
            <TextField
              id={IDS.contact}
              label={t(`contact.newContact.${c.kind}`)}
              description={t(`contact.newContactHint.${c.kind}`)}
              value={c.contact}
              onChange={(v) => send({ type: 'contact.change', contact: v })}
              isReadOnly={busy}
              errorMessage={errors.contact}
              type={c.kind === 'email' ? 'email' : 'tel'}
              inputMode={c.kind === 'email' ? 'email' : 'tel'}
              autoComplete={c.kind === 'email' ? 'email' : 'tel'}
              name="contact"
            />
            <div className="form__actions">
              <Button type="submit" className="button button--primary" isDisabled={busy}>
                {t('contact.send')}
              </Button>
              <Link className="button button--link" to="/case-history">
                {t('contact.back')}
              </Link>
            </div>
          </>
        )}
      </Form>
    </article>
  );
}

/**
 * The API's refusal as messages at the fields it is about (`contact`, `oldCode`, `newCode`) or, when it
 * is about neither, for the form (`form`). The same refusal gives the same messages, so that typing a
 * correction does not count as a new refusal.
 */
function refusalFields(
  failure: ContactChangeFailure | null,
  w: {
    kindName: string;
    contact: string;
    t: (key: string, params?: Record<string, string | number>) => string;
    time: (seconds: number) => string;
  },
): Partial<Record<'contact' | 'oldCode' | 'newCode' | 'form', string>> {
  if (!failure) return {};
  const { t, kindName: kind, contact } = w;
  switch (failure.kind) {
    case 'unchanged':
      return { contact: t('contact.errors.unchanged', { kind }) };
    case 'wrongCode':
      if (failure.field === 'oldCode') return { oldCode: t('contact.errors.wrongOld', { kind }) };
      if (failure.field === 'newCode') return { newCode: t('contact.errors.wrongNew', { contact }) };
      return { form: t('contact.errors.wrongCode') };
    case 'burnt':
      return failure.field
        ? { [failure.field]: t('contact.errors.burnt') }
        : { form: t('contact.errors.burnt') };
    case 'locked':
    case 'rateLimited':
      return { form: t(`contact.errors.${failure.kind}`, { time: w.time(failure.retryAfterSeconds ?? 60) }) };
    case 'invalid':
      return { form: failure.message || t('contact.errors.invalid') };
    default:
      return { form: t(`contact.errors.${failure.kind}`) };
  }
}
