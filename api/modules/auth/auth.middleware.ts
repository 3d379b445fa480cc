import type { RequestHandler, Response } from 'express';
import { UnauthorizedError } from '../../http/errors';
import type { AuthSession, SessionService } from './sessions';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * `Authorization: Bearer <token>`: a live session goes on as `res.locals.session` (and counts as
 * activity); no token, or one unknown, revoked, idle too long or past its absolute end, answers
 * 401 UNAUTHORIZED ("Your session has ended. Please log in again.").
 */
export function requireSession(sessions: SessionService): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    res.locals.session = await sessions.authenticate(match?.[1]);
    next();
  };
}

/** The session `requireSession` found for this request. */
export function currentSession(res: Response): AuthSession {
  const session: unknown = res.locals.session;
  if (!session) throw new UnauthorizedError();
  return session as AuthSession;
}
