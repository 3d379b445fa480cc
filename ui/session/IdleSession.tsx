import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isLoggedIn } from '../../machines/rules/session-state';
import { api } from '../api';
import { showToast } from '../feedback/stores';
import { ACTIVITY_STORAGE_KEY } from './activity';
import { clearLogin } from './auth';
import { IdleWarning, type IdleSettings } from './IdleWarning';
import { logout } from './logout';
import { useSession } from './store';

/**
 * The applicant's idle session (spec §4): the idle warning (IdleWarning.tsx) while logged in, with the
 * timeout of master data `logout_idletime_frontend`, the keepalive of `POST /api/auth/keepalive`, and the
 * home page with a message when the time is up.
 */
export function IdleSession() {
  const loggedIn = useSession(isLoggedIn);
  return loggedIn ? <IdleTracker /> : null;
}

function IdleTracker() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const settings = useMemo<IdleSettings>(
    () => ({
      storageKey: ACTIVITY_STORAGE_KEY,
      loadTimeout: async () =>
        (
          await api.post<{ dataValue: string }[]>(
            'application/getmasterdata',
            { type: 'admin_setting', code: 'logout_idletime_frontend' },
            { noLoading: true, quiet: true },
          )
        ).data[0]?.dataValue,
      extend: async () => {
        await api.post('auth/keepalive', undefined, { noLoading: true });
      },
      resetAuth: () => clearLogin(),
      onLoggedOut: () => {
        showToast('info', t('idle.loggedOut'), 8000);
        void navigate('/');
      },
      logout: () => void logout(() => void navigate('/')),
    }),
    [t, navigate],
  );
  return <IdleWarning settings={settings} />;
}
