import type { LoginSession } from '../../machines/flows/login-otp.machine';
import { writeActivity } from './activity';
import { updateSession } from './store';

/** Logout of spec §4: clear token, role, user id and application number and the login flag. */
export function clearLogin(): void {
  updateSession((s) => ({
    ...s,
    isLogin: false,
    token: '',
    role: '',
    userId: '',
    applicationNo: '',
    authRoutes: [],
    authButtons: [],
  }));
}

/** Start a session in the browser: the token plus the login flag (spec §4), and the activity clock. */
export function startSession(session: LoginSession): void {
  updateSession((s) => ({
    ...s,
    isLogin: true,
    token: session.token,
    applicationNo: session.applicationNo,
    role: session.role,
    userId: session.userId,
    authRoutes: session.authRoutes ?? [],
    authButtons: session.authButtons ?? [],
  }));
  writeActivity({ time: Date.now(), isLogin: true });
}
