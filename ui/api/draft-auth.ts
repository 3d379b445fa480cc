import { draftToken } from '../flows/apply/draft-tokens';

/**
 * The one place a bearer other than the session's is built: a draft's own token (its credential for saving,
 * uploading, signing and submitting) or a token just issued. The session's bearer is added by the client
 * itself (ui/api/client.ts) when a request brings none.
 */
export function bearerHeaders(token: string | undefined): { headers?: Record<string, string> } {
  return token ? { headers: { Authorization: `Bearer ${token}` } } : {};
}

/** The draft's bearer, when this browser holds its token (else the session's is used). */
export function draftAuth(applicationNo: string): { headers?: Record<string, string> } {
  return bearerHeaders(draftToken(applicationNo));
}

/** The Authorization header's value for a draft (an XMLHttpRequest upload sets it itself). */
export function draftAuthorization(applicationNo: string): string | undefined {
  return draftAuth(applicationNo).headers?.Authorization;
}
