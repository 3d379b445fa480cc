import type { Request, RequestHandler, Response } from 'express';
import { may, type ConsoleAction } from '../../../machines/rules/authorisation';
import { ForbiddenError, UnauthorizedError } from '../../http/errors';
import { STAFF_COOKIE, type StaffAuthService, type StaffSession } from './staff-auth';

/** The staff session cookie of a request (`bd_staff=`), if any. Applicant Bearer tokens are never read. */
export function staffToken(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === STAFF_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/** A live staff session goes on as `res.locals.staff`; otherwise 401. */
export function requireStaff(auth: StaffAuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.staff = await auth.authenticate(staffToken(req));
    next();
  };
}

export function currentStaff(res: Response): StaffSession {
  const staff: unknown = res.locals.staff;
  if (!staff) throw new UnauthorizedError();
  return staff as StaffSession;
}

/** After `requireStaff`: the staff role must hold `action` (machines/rules/authorisation.ts), else 403. */
export function authoriseStaff(action: ConsoleAction): RequestHandler {
  return (_req, res, next) => {
    if (!may(currentStaff(res).staff.role, action)) throw new ForbiddenError();
    next();
  };
}
