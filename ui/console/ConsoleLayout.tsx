import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { may } from '../../machines/rules/authorisation';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../machines/rules/language';
import type { StaffMe } from '../../machines/rules/staff';
import { Spinner } from '../components/Spinner';
import { applyHtmlLang, rememberLanguage } from '../i18n';
import { STAFF_ACTIVITY_STORAGE_KEY } from '../session/activity';
import { IdleWarning, type IdleSettings } from '../session/IdleWarning';
import { updateSession } from '../session/store';
import { consoleApi } from './api';
import { NoticeCount } from './InboxParts';
import { TotpEnrolment } from './TotpEnrolment';
import './console.css';

/** While the officer is active, the server's idle time is renewed at most this often. */
const STAFF_PING_MS = 30_000;

export interface ConsoleContext {
  me: StaffMe | null;
  setMe: (me: StaffMe | null) => void;
}

/**
 * The console's frame (outside the public menus): the department's name, the console's navigation, the
 * signed-in officer, sign out and the language. Pages get the officer through the outlet context; without
 * a staff session every page but the sign-in goes there.
 */
export default function ConsoleLayout() {
  const { t, i18n } = useTranslation('console');
  const navigate = useNavigate();
  const location = useLocation();
  const [me, setMe] = useState<StaffMe | null | undefined>(undefined);
  const signInPage = location.pathname === '/console/sign-in';

  // The session as the page opened. A sign-in that answers first wins: a late "no session" from before it
  // must not sign the officer out again.
  useEffect(() => {
    consoleApi.get<StaffMe>('session').then(
      (found) => setMe((now) => now ?? found),
      () => setMe((now) => (now === undefined ? null : now)),
    );
  }, []);
  // Signed out by the idle timer: the sign-in page says so.
  const idleSignOut = useRef(false);
  useEffect(() => {
    if (me !== null || signInPage) return;
    void navigate('/console/sign-in', { replace: true, state: { idle: idleSignOut.current } });
    idleSignOut.current = false;
  }, [me, signInPage, navigate]);
  useEffect(() => {
    document.title = `${t('title')} | ${t('bd')}`;
  }, [t, i18n.language]);

  // Kept as the public side keeps it (the stored session, read at start): the next page load opens in it.
  const choose = (language: Language) => {
    updateSession((s) => ({ ...s, language }));
    void i18n.changeLanguage(language);
    applyHtmlLang(language);
    rememberLanguage(language);
  };
  const signOut = async () => {
    await consoleApi.del('session').catch(() => undefined);
    setMe(null);
  };
  // The staff session's short idle timeout (master data `staff_idle_minutes`), with the applicants' warning
  // and countdown; activity in the page renews the server's idle time too (at most every 30 s).
  const pinged = useRef(0);
  const idleMinutes = me?.idleMinutes;
  const idle = useMemo<IdleSettings>(
    () => ({
      storageKey: STAFF_ACTIVITY_STORAGE_KEY,
      loadTimeout: () => Promise.resolve(idleMinutes),
      extend: async () => {
        await consoleApi.get('session');
      },
      onActivity: (now) => {
        if (now - pinged.current < STAFF_PING_MS) return;
        pinged.current = now;
        consoleApi.get('session').catch(() => undefined);
      },
      resetAuth: () => {
        void consoleApi.del('session').catch(() => undefined);
      },
      onLoggedOut: () => {
        idleSignOut.current = true;
        setMe(null);
      },
      logout: () => void signOut(),
    }),
    [idleMinutes],
  );

  return (
    <div className="console">
      <a className="console__skip" href="#console-main">
        {t('skip')}
      </a>
      <header className="console__header">
        <p className="console__bd">{t('bd')}</p>
        <p className="console__title">{t('title')}</p>
        <div className="console__tools">
          <nav aria-label={t('language')}>
            <ul className="console__inline">
              {LANGUAGES.map((l) => (
                <li key={l}>
                  <button
                    type="button"
                    className="button button--link"
                    lang={l === 'en' ? 'en' : l === 'tc' ? 'zh-HK' : 'zh-CN'}
                    aria-pressed={i18n.language === l}
                    onClick={() => choose(l)}
                  >
                    {LANGUAGE_NAMES[l]}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {me && (
            <>
              <p>
                {t('signedInAs', {
                  name: i18n.language === 'en' ? me.nameEn : me.nameZh,
                  role: t(`roles.${me.role}`),
                })}
              </p>
              <button type="button" className="button" onClick={() => void signOut()}>
                {t('signOut')}
              </button>
            </>
          )}
        </div>
        {me && !me.totpPending && (
          <nav aria-label={t('nav.label')}>
            <ul className="console__inline">
              {may(me.role, 'console.queue') && (
                <li>
                  <Link to="/console">{t('nav.queue')}</Link>
                </li>
              )}
              {may(me.role, 'console.inbox') && (
                <li>
                  <NoticeCount path={location.pathname} />
                </li>
              )}
              {me.role !== 'caseOfficer' && (
                <li>
                  <Link to="/console/audit">{t('nav.audit')}</Link>
                </li>
              )}
              {may(me.role, 'console.holders') && (
                <li>
                  <Link to="/console/holders">{t('nav.holders')}</Link>
                </li>
              )}
              {may(me.role, 'console.performance') && (
                <li>
                  <Link to="/console/performance">{t('nav.performance')}</Link>
                </li>
              )}
              {me.role === 'admin' && (
                <li>
                  <Link to="/console/admin">{t('nav.admin')}</Link>
                </li>
              )}
            </ul>
          </nav>
        )}
      </header>
      {me ? <IdleWarning key={me.id} settings={idle} /> : null}
      <main id="console-main" className="console__main" tabIndex={-1}>
        <Suspense fallback={<Spinner />}>
          {me === undefined ? (
            <Spinner />
          ) : me?.totpPending && !signInPage ? (
            // Reloaded before the new authenticator was set up (decision 036): that comes first.
            <TotpEnrolment onDone={() => setMe({ ...me, totpPending: false })} />
          ) : (
            <Outlet context={{ me, setMe } satisfies ConsoleContext} />
          )}
        </Suspense>
      </main>
    </div>
  );
}
