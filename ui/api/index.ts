import i18next from 'i18next';
import { createApiClient } from './client';
import { getSession } from '../session/store';
import { clearLogin } from '../session/auth';
import { changeLoading, showToast } from '../feedback/stores';

let navigateHome: () => void = () => window.location.assign('/');

/** The router gives the client its navigation once it exists (a 401 goes home without a reload). */
export function setNavigateHome(fn: () => void): void {
  navigateHome = fn;
}

/** A 401: the session ended; clear the login and go home (spec §8). Also for uploads, sent on their own. */
export function sessionEnded(): void {
  clearLogin();
  navigateHome();
}

/** The portal's one API client, wired to the session, the router and the feedback stores. */
export const api = createApiClient({
  getToken: () => getSession().token,
  onUnauthorized: sessionEnded,
  onError: (message) => showToast('error', message),
  onLoading: changeLoading,
  messages: () => ({
    timeout: i18next.t('common:errors.timeout'),
    network: i18next.t('common:errors.network'),
  }),
});

export { ApiError, type Envelope } from './client';
