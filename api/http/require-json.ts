import type { RequestHandler } from 'express';
import { UnsupportedMediaTypeError } from './errors';

/**
 * A request that carries a body must send it as application/json (415 otherwise). A request with an
 * empty body passes, and the route's schema then reports what is missing (400).
 */
export const requireJson: RequestHandler = (req, _res, next) => {
  const length = Number(req.headers['content-length']);
  const hasBody = req.headers['transfer-encoding'] !== undefined || length > 0;
  if (hasBody && !req.is('application/json')) {
    next(new UnsupportedMediaTypeError());
    return;
  }
  next();
};
