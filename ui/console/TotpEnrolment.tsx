import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffEnrolled, StaffEnrolment } from '../../machines/rules/staff-admin';
import { ConsoleApiError, consoleApi } from './api';
import { FieldInput, ProblemSummary } from './fields';

/**
 * The first sign-in after an account is made or its authenticator reset (docs/decisions/036): the new
 * TOTP's key to enter in the authenticator app, a code of it to confirm, then the new recovery codes,
 * shown once.
 */
export function TotpEnrolment({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('console');
  const [enrolment, setEnrolment] = useState<StaffEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    consoleApi
      .get<StaffEnrolment>('enrolment')
      .then(setEnrolment, (e: unknown) => setError(e instanceof ConsoleApiError ? e : null));
    titleRef.current?.focus();
  }, []);
  useEffect(() => {
    if (codes) doneRef.current?.focus();
  }, [codes]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const done = await consoleApi.post<StaffEnrolled>('enrolment', { code });
      setError(null);
      setCodes(done.recoveryCodes);
    } catch (err) {
      setError(err instanceof ConsoleApiError ? err : null);
      setCode('');
    }
  };

  if (codes)
    return (
      <>
        <h1 tabIndex={-1} ref={doneRef}>
          {t('enrolment.doneTitle')}
        </h1>
        <p>{t('enrolment.codesText')}</p>
        <ul className="console__codes" data-testid="recovery-codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <button type="button" className="button button--primary" onClick={onDone}>
          {t('enrolment.continue')}
        </button>
      </>
    );
  return (
    <>
      <h1 tabIndex={-1} ref={titleRef}>
        {t('enrolment.title')}
      </h1>
      <p>{t('enrolment.intro')}</p>
      <ProblemSummary error={error} />
      {enrolment && (
        <dl>
          <dt>{t('enrolment.key')}</dt>
          <dd>
            <code data-testid="totp-secret">{enrolment.secret}</code>
          </dd>
          <dt>{t('enrolment.link')}</dt>
          <dd>
            <a href={enrolment.otpauthUri}>{t('enrolment.open')}</a>
          </dd>
        </dl>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FieldInput
          id="enrol-code"
          label={t('enrolment.code')}
          hint={t('enrolment.codeHint')}
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          inputMode="numeric"
          error={error?.fields.find((f) => f.path === 'code')?.message}
        />
        <button type="submit" className="button button--primary">
          {t('enrolment.submit')}
        </button>
      </form>
    </>
  );
}
