import { ZodError } from 'zod';

/** Field errors answered as 400 in the envelope (api/http/error-handler.ts translates each message key). */

/** A 400 with one field error (the message is an i18n key, translated by the error middleware). */
export function fieldError(path: (string | number)[], message: string): ZodError {
  return new ZodError([{ code: 'custom', path, message, input: undefined }]);
}

/** The issues of a form schema's parse of `answers`, moved under the request's `answers` field. */
export function underAnswers(error: ZodError): ZodError {
  return new ZodError(error.issues.map((issue) => ({ ...issue, path: ['answers', ...issue.path] })));
}
