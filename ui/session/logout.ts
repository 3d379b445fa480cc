import { api } from '../api';
import { clearLogin } from './auth';
import { writeActivity } from './activity';

/** Logout (spec §4): revoke the session on the server, clear the browser's, and go home. */
export async function logout(goHome: () => void): Promise<void> {
  await api.post('auth/logout', undefined, { quiet: true, noLoading: true }).catch(() => undefined);
  writeActivity({ time: null, isLogin: false });
  clearLogin();
  goHome();
}
