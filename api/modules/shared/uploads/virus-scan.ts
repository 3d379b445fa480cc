import type { DocumentStorage } from '../../../adapters/storage';
import { ScannerUnavailableError, type VirusScanner } from '../../../adapters/virus-scanner';
import { ApiError } from '../../../http/errors';

/** 422: the file holds a virus (or a test signature such as EICAR). */
export class DocumentInfectedError extends ApiError {
  constructor(fileName: string, viruses: string[]) {
    super(422, 'DOCUMENT_INFECTED', 'documents.infected', { viruses }, { params: { name: fileName } });
  }
}

/** Seconds after which trying again makes sense when the scanner is down. */
const RETRY_AFTER_SECONDS = 60;

/** 503: the scanner cannot be reached; the upload is refused for now. */
export class ScannerDownError extends ApiError {
  constructor() {
    super(503, 'SERVICE_UNAVAILABLE', 'documents.scannerUnavailable', null, {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    });
  }
}

/**
 * Scans a stored upload before it is recorded. Infected: 422. Scanner unreachable or without a
 * verdict: 503 with Retry-After, so the file is not accepted unscanned and the person tries again
 * (the caller removes the stored file in both cases).
 */
export async function scanStoredUpload(
  scanner: VirusScanner,
  storage: DocumentStorage,
  storageKey: string,
  fileName: string,
): Promise<void> {
  if (scanner.kind === 'off') return;
  let verdict;
  try {
    verdict = await scanner.scan(storage.get(storageKey));
  } catch (error) {
    if (error instanceof ScannerUnavailableError) throw new ScannerDownError();
    throw error;
  }
  if (verdict.infected) throw new DocumentInfectedError(fileName, verdict.viruses);
}
