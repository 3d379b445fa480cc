import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, ForbiddenError } from '../../http/errors';
import type { Clock } from '../../clock';

/**
 * Signed download links of a submission's files (docs/api.md, "Submission"): an HMAC over the
 * application number, the file and the expiry, so a link works without a session until it expires.
 */
export function downloadLinks(linkSecret: string | Buffer, clock: Clock) {
  const sign = (applicationNo: string, fileId: string, expires: number) =>
    createHmac('sha256', linkSecret)
      .update(`download|${applicationNo}|${fileId}|${expires}`)
      .digest('base64url');
  return {
    /** The file's link, valid until `expires` (ms since the epoch). */
    url(applicationNo: string, fileId: string, expires: number): string {
      return `/api/submissions/${encodeURIComponent(applicationNo)}/files/${fileId}?expires=${expires}&signature=${sign(applicationNo, fileId, expires)}`;
    },
    /** Throws 403 for a link the portal did not make, 410 for one that expired. */
    check(applicationNo: string, fileId: string, expires: string, signature: string): void {
      const at = Number(expires);
      const expected = Buffer.from(sign(applicationNo, fileId, at));
      const given = Buffer.from(signature);
      if (!Number.isSafeInteger(at) || expected.length !== given.length || !timingSafeEqual(expected, given))
        throw new ForbiddenError('submission.linkInvalid');
      if (clock.now().getTime() > at) throw new ApiError(410, 'LINK_EXPIRED', 'submission.linkExpired');
    },
  };
}
