import type { LoginData, OtpSentData, OtpSendRequest, OtpVerifyRequest } from '../../../machines/rules/otp';
import type { OtpService } from './otp';
import type { SessionService } from './sessions';

/** "Find my case" login: a one-time password, then a session. */
export interface AuthService {
  sendCode(request: OtpSendRequest): Promise<OtpSentData>;
  /** Verifies the code and opens a session in the same transaction. */
  login(request: OtpVerifyRequest): Promise<LoginData>;
}

export function createAuthService({
  otp,
  sessions,
}: {
  otp: OtpService;
  sessions: SessionService;
}): AuthService {
  return {
    sendCode: (request) => otp.send(request, 'login'),
    async login(request) {
      // Read before the transaction: it may query the database (PGlite has a single connection).
      const idleMinutes = await sessions.idleMinutes();
      return otp.verify(
        request,
        (tx, applicationId) => sessions.create(tx, applicationId, idleMinutes),
        'login',
      );
    },
  };
}
