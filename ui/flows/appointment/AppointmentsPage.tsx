import { useCallback, useEffect, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AppointmentView } from '../../../machines/rules/appointment';
import { isLoggedIn } from '../../../machines/rules/session-state';
import { PageHeading } from '../../components/PageHeading';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { formatDate } from '../../components/format';
import { useSession } from '../../session/store';
import { appointmentsApi } from './appointments-api';

type Load = { state: 'loading' } | { state: 'done'; rows: AppointmentView[] } | { state: 'failed' };

/**
 * `/form-appointment-step2`: the appointments of the applicant's case, each with its status, and the
 * applicant's two acts: cancel an open invitation, revoke an active appointment with a reason. The API
 * refuses both to anyone but the applicant; this page only offers them where the table grants them.
 */
export default function AppointmentsPage() {
  const { t, i18n } = useTranslation(['appointment', 'common']);
  const loggedIn = useSession(isLoggedIn);
  const applicationNo = useSession((s) => s.applicationNo);
  const buttons = useSession((s) => s.authButtons);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [revoking, setRevoking] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [showError, setShowError] = useState(false);

  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    appointmentsApi.list().then(
      (rows) => live && setLoad({ state: 'done', rows }),
      () => live && setLoad({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [loggedIn, version]);

  if (!loggedIn)
    return (
      <article className="content-page">
        <PageHeading>{t('manage.title')}</PageHeading>
        <p>{t('manage.loginFirst')}</p>
        <p>
          <Link className="button button--primary" to="/find-my-case">
            {t('manage.login')}
          </Link>
        </p>
      </article>
    );

  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : '');
  const act = (p: Promise<void>) =>
    p.then(
      () => {
        setRevoking(null);
        setReason('');
        refresh();
      },
      () => undefined,
    );

  return (
    <article className="content-page">
      <PageHeading>{t('manage.title')}</PageHeading>
      <p className="lead">{t('manage.intro', { applicationNo })}</p>
      {load.state === 'loading' ? <Spinner /> : null}
      {load.state === 'failed' ? (
        <div className="notice notice--error" role="alert">
          <p>{t('manage.loadFailed')}</p>
          <Button className="button" onPress={refresh}>
            {t('manage.retry')}
          </Button>
        </div>
      ) : null}
      {load.state === 'done' && load.rows.length === 0 ? <p>{t('manage.none')}</p> : null}
      {load.state === 'done' ? (
        <ul className="appointment-list">
          {load.rows.map((a) => (
            <li key={a.id} className="appointment-card">
              <h2>
                {a.nameEn}
                {a.nameZh ? ` ${a.nameZh}` : ''} – {t(`manage.roles.${a.identity}`)}
              </h2>
              <p>
                <strong>{t(`manage.statuses.${a.status}`)}</strong>
              </p>
              <p>{t('manage.registration', { number: a.registrationNumber, date: date(a.expiryDate) })}</p>
              <p>
                {a.email} · {a.mobile}
              </p>
              {a.registeredContacts ? <p className="field__hint">{t('manage.registeredContacts')}</p> : null}
              <p>
                {t('manage.invitedAt', { date: date(a.invitedAt) })}
                {a.acceptedAt ? ` · ${t('manage.acceptedAt', { date: date(a.acceptedAt) })}` : ''}
              </p>
              {a.endedAt ? (
                <p>
                  {t('manage.endedAt', {
                    date: date(a.endedAt),
                    reason: t(`manage.reasons.${a.endReason ?? ''}`, { defaultValue: a.endReason ?? '' }),
                  })}
                </p>
              ) : null}
              {a.status === 'INVITED' && buttons.includes('appointment.cancel') ? (
                <Button className="button" onPress={() => void act(appointmentsApi.cancel(a.id))}>
                  {t('manage.cancel')}
                </Button>
              ) : null}
              {a.status === 'ACTIVE' && buttons.includes('appointment.revoke') && revoking !== a.id ? (
                <Button className="button" onPress={() => setRevoking(a.id)}>
                  {t('manage.revoke')}
                </Button>
              ) : null}
              {revoking === a.id ? (
                <Form
                  className="form"
                  validationBehavior="aria"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (!reason.trim()) {
                      setShowError(true);
                      return;
                    }
                    void act(appointmentsApi.revoke(a.id, reason.trim()));
                  }}
                >
                  <TextField
                    label={t('manage.reason')}
                    description={t('manage.reasonHint')}
                    value={reason}
                    onChange={setReason}
                    maxLength={500}
                    errorMessage={showError && !reason.trim() ? t('manage.reason') : null}
                  />
                  <div className="form__actions">
                    <Button type="submit" className="button button--primary">
                      {t('manage.confirmRevoke')}
                    </Button>
                    <Button className="button" onPress={() => setRevoking(null)}>
                      {t('manage.back')}
                    </Button>
                  </div>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="form__actions">
        <Link className="button button--primary" to="/form-appointment-step1">
          {t('manage.appoint')}
        </Link>
        <Link className="button" to="/case-history">
          {t('manage.toCase')}
        </Link>
      </p>
    </article>
  );
}
