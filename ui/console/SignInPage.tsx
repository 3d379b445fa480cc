import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useOutletContext } from 'react-router-dom';
import type { StaffMe } from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import type { ConsoleContext } from './ConsoleLayout';
import { FieldInput, ProblemSummary } from './fields';
import { TotpEnrolment } from './TotpEnrolment';

/** /console/sign-in: user name, password and the authenticator's code (or a recovery code). */
export default function SignInPage() {
  const { t } = useTranslation('console');
  const navigate = useNavigate();
  const { setMe } = useOutletContext<ConsoleContext>();
  const [values, setValues] = useState({ username: '', password: '', code: '' });
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [busy, setBusy] = useState(false);
  // A new account, or an authenticator reset by the admin: the new TOTP is set up first (decision 036).
  const [enrolling, setEnrolling] = useState<StaffMe | null>(null);
  // Signed out by the idle timer (ConsoleLayout): said here, where the officer lands.
  const idle = (useLocation().state as { idle?: boolean } | null)?.idle === true;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const me = await consoleApi.post<StaffMe>('session', values);
      if (me.totpPending) {
        setEnrolling(me);
        return;
      }
      enter(me);
    } catch (err) {
      setError(err instanceof ConsoleApiError ? err : new ConsoleApiError(0, 'NETWORK', t('errors.network')));
      setValues((v) => ({ ...v, code: '' }));
    } finally {
      setBusy(false);
    }
  };
  function enter(me: StaffMe) {
    setMe(me);
    void navigate(me.role === 'admin' ? '/console/audit' : '/console');
  }
  const set = (name: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [name]: value }));

  if (enrolling) return <TotpEnrolment onDone={() => enter({ ...enrolling, totpPending: false })} />;

  return (
    <>
      <h1>{t('signIn.title')}</h1>
      {idle && (
        <p className="notice notice--info" role="status">
          {t('signIn.idle')}
        </p>
      )}
      <p>{t('signIn.intro')}</p>
      <ProblemSummary error={error} />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FieldInput
          id="username"
          label={t('signIn.username')}
          value={values.username}
          onChange={set('username')}
          autoComplete="username"
        />
        <FieldInput
          id="password"
          label={t('signIn.password')}
          type="password"
          value={values.password}
          onChange={set('password')}
          autoComplete="current-password"
        />
        <FieldInput
          id="code"
          label={t('signIn.code')}
          hint={t('signIn.codeHint')}
          value={values.code}
          onChange={set('code')}
          autoComplete="one-time-code"
          inputMode="text"
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('signIn.submit')}
        </button>
      </form>
      <p className="console__note">{t('signIn.production')}</p>
    </>
  );
}
