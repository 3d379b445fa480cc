import type { RequestHandler } from 'express';
import { historyQuerySchema } from '../../../machines/rules/history';
import { ForbiddenError } from '../../http/errors';
import { currentSession } from './auth.middleware';

/**
 * After `requireSession`, on every endpoint of "the session's case": `?applicationNo=` may name the case,
 * but only the session's own. Another number (whether or not it exists) is 403, so the answer tells
 * nothing about other cases; a malformed one is 400.
 */
export const ownCaseOnly: RequestHandler = (req, res, next) => {
  const { applicationNo } = historyQuerySchema.parse(req.query);
  if (applicationNo !== undefined && applicationNo !== currentSession(res).applicationNo)
    throw new ForbiddenError();
  next();
};
