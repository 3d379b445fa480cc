import type { RequestHandler } from 'express';
import { sendEnvelope } from './envelope';

/** Seconds a caller is asked to wait after a 503 for a time-out or an unavailable database. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** Whether this request was already answered by its time-out (a late outcome is then dropped). */
export function timedOut(res: { locals: Record<string, unknown> }): boolean {
  return res.locals.timedOut === true;
}

/**
 * A bound on every API request (docs/decisions/032-runtime-limits.md): a request not answered within
 * `ms` is answered 503 SERVICE_UNAVAILABLE `status.timeout` with Retry-After, well before the browser's
 * own 60 s, instead of hanging on a database that does not answer. The time counts from the request's
 * arrival, and again from the end of its body; while a body is still arriving (a slow upload) the bound
 * waits for it, so a slow line is not cut (the Node server's `requestTimeout` bounds that). A request
 * already answering (headers sent, a download streaming) is left alone. The handler itself is not
 * stopped: its late answer is dropped by the error handler.
 */
export function requestTimeout(ms: number): RequestHandler {
  return (req, res, next) => {
    let timer: NodeJS.Timeout | undefined;
    let bytesSeen = req.socket.bytesRead;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(fire, ms);
    };
    const fire = () => {
      if (res.headersSent) return;
      // The body is still arriving: not the server's delay. Look again after another period.
      if (!req.complete && req.socket.bytesRead > bytesSeen) {
        bytesSeen = req.socket.bytesRead;
        arm();
        return;
      }
      res.locals.timedOut = true;
      req.log.warn({ timeoutMs: ms }, 'request timed out');
      if (!req.complete) res.set('Connection', 'close');
      res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'status.timeout', null);
    };
    const stop = () => clearTimeout(timer);
    req.once('end', () => {
      if (!res.headersSent) arm();
    });
    res.once('finish', stop);
    res.once('close', stop);
    arm();
    next();
  };
}
