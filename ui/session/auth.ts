import { updateSession } from './store';

/** Logout of spec §4: clear token, role, user id and application number and the login flag. */
export function clearLogin(): void {
  updateSession((s) => ({ ...s, isLogin: false, token: '', role: '', userId: '', applicationNo: '' }));
}
