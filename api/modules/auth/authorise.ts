import type { RequestHandler } from 'express';
import { may, type Action } from '../../../machines/rules/authorisation';
import { ForbiddenError } from '../../http/errors';
import { currentSession } from './auth.middleware';

/**
 * After `requireSession`: the session's role must hold `action` in the table of machines/rules/
 * authorisation.ts, else 403 FORBIDDEN. One middleware for every endpoint, tested as a table.
 */
export function authorise(action: Action): RequestHandler {
  return (_req, res, next) => {
    if (!may(currentSession(res).role, action)) throw new ForbiddenError();
    next();
  };
}
