import type { ApiMessageKey } from './i18n';
import type { ErrorCode } from './envelope';

/**
 * An error the API answers on purpose. Services throw these (or subclasses per domain); the one error
 * middleware turns them into a status and an envelope. Anything else becomes a 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: ApiMessageKey,
    readonly data: unknown = null,
  ) {
    super(messageKey);
    this.name = new.target.name;
  }
}

export class BadRequestError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.badRequest', data: unknown = null) {
    super(400, 'BAD_REQUEST', messageKey, data);
  }
}

export class NotFoundError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.notFound') {
    super(404, 'NOT_FOUND', messageKey);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor() {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', 'status.unsupportedMediaType');
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.serviceUnavailable', data: unknown = null) {
    super(503, 'SERVICE_UNAVAILABLE', messageKey, data);
  }
}
