/** The auth module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { currentSession, requireSession } from './auth.middleware';
export { authRouter } from './auth.routes';
export { createAuthService } from './auth.service';
export { authorise } from './authorise';
export { type ApplicationContact, type OtpPurpose } from './otp.repo';
export { createOtpService, type OtpService } from './otp';
export { ownCaseOnly } from './own-case';
export {
  createSessionService,
  hashToken,
  type AppointeeCheck,
  type AuthSession,
  type SessionService,
} from './sessions';
export { authoriseStaff, currentStaff, requireStaff, staffToken } from './staff-auth.middleware';
export {
  STAFF_COOKIE,
  createStaffAuthService,
  passwordTotpProvider,
  type StaffAuthService,
  type StaffIdentityProvider,
  type StaffSession,
} from './staff-auth';
export { type SignInLimits } from './staff-sign-in-limits';
export { DEMO_STAFF, seedStaff } from './demo-staff';
export { StaffEnrolmentRequiredError, createStaffAdminService, type StaffAdminService } from './staff-admin';
