import {
  createHash,
  generateKeyPairSync,
  type KeyObject,
  randomInt,
  randomUUID,
  sign,
  verify,
} from 'node:crypto';

/**
 * iAM Smart digital signing (docs/flows/signing.md). The real service cannot be reached from here, so the
 * portal talks to this interface, in the service's own shape: every answer is `{ code, message, content }`,
 * `D00000` is success. The flow: the portal sends the SHA-256 hash of what is signed with the applicant's
 * HKIC hash; the service answers a transaction with an identification code and the text of a QR code
 * (an iAM Smart deep link); the applicant scans it (or the app opens on a phone), checks the code and
 * signs; the portal asks for the result until it is no longer pending.
 *
 * `createIamSmartSandbox` implements it in memory, with the phone's part (`sandbox.phone`) for tests and a
 * development page. A client of the real service implements the same interface (see the doc page).
 */

/** The answer codes. D00000, D70004 and D70005 are the service's; the D4xxxx ones are the sandbox's choice. */
export const IAM_SMART_CODES = {
  success: 'D00000',
  /** getSigningResult: the applicant has not answered yet. */
  pending: 'D40001',
  /** getSigningResult: the request's time ran out before the applicant answered. */
  expired: 'D40002',
  /** getSigningResult: the applicant declined on the phone, or the portal cancelled. */
  cancelled: 'D40003',
  /** getSigningResult / cancelSigning: no such transaction. */
  unknownTransaction: 'D40004',
  /** cancelSigning: the transaction has already ended (signed, failed, expired or cancelled). */
  alreadyEnded: 'D40005',
  /** requestSigning: a malformed request (hash or HKIC hash not hex SHA-256, unknown language). */
  invalidRequest: 'D40000',
  /** The account has no digital signing function. */
  noSigningFunction: 'D70004',
  /** The signer's HKIC differs from the applicant's (their hashes differ). */
  hkicMismatch: 'D70005',
} as const;
export type IamSmartCode = (typeof IAM_SMART_CODES)[keyof typeof IAM_SMART_CODES];

/** The service's messages, as it words them (the portal shows its own translated texts). */
export const IAM_SMART_MESSAGES: Record<IamSmartCode, string> = {
  D00000: 'Success',
  D40000: 'Invalid request',
  D40001: 'Signing request pending',
  D40002: 'Signing request expired',
  D40003: 'Signing request cancelled',
  D40004: 'Signing request not found',
  D40005: 'Signing request already ended',
  D70004:
    'iAM Smart account does not have digital signing function. Please obtain digital signing function to proceed',
  D70005: 'HKIC mismatch. Please confirm the identity of the signer and try again.',
};

export interface IamSmartAnswer<T> {
  code: string;
  message: string;
  /** The answer's data with `D00000`; null otherwise. */
  content: T | null;
}

export type IamSmartLanguage = 'en' | 'zh-HK' | 'zh-CN';

export interface SigningRequest {
  /** Hex SHA-256 of what is signed. */
  hash: string;
  /** Hex SHA-256 of the applicant's HKIC: the service refuses a signer whose HKIC hashes otherwise (D70005). */
  hkicHash: string;
  /** The language of the app's prompt. */
  language: IamSmartLanguage;
  /** The portal's own reference, given back with the result (and on the redirect's `?state`). */
  state: string;
}

export interface SigningRequestContent {
  txId: string;
  /** 4 digits the app shows too; the applicant checks that they match. */
  identificationCode: string;
  /** What the QR code encodes: the iAM Smart deep link of the transaction. */
  qrText: string;
  /** ISO date-time after which the request can no longer be signed. */
  expiresAt: string;
}

export interface SignedContent {
  /** Base64 of the signature over the hash. */
  signature: string;
  /** The signer's certificate (an id in the sandbox). */
  certificate: string;
  /** ISO date-time. */
  signedAt: string;
  /** The hash that was signed, and the portal's `state`. */
  hash: string;
  state: string;
}

export interface IamSmartSigning {
  /** Starts a signing: D00000 with the transaction, or D40000. */
  requestSigning(request: SigningRequest): Promise<IamSmartAnswer<SigningRequestContent>>;
  /** D00000 with the signature, D40001 pending, D40002 expired, D40003 cancelled, D70004, D70005, D40004. */
  getSigningResult(txId: string): Promise<IamSmartAnswer<SignedContent>>;
  /** D00000 when a pending transaction was cancelled; D40005 when it had ended; D40004 when unknown. */
  cancelSigning(txId: string): Promise<IamSmartAnswer<null>>;
}

/** What the sandbox's phone can do with a pending request. */
export type PhoneAction = 'approve' | 'decline' | 'no-signing-function' | 'other-hkic';
export const PHONE_ACTIONS: readonly PhoneAction[] = [
  'approve',
  'decline',
  'no-signing-function',
  'other-hkic',
];

/** A pending request as the sandbox's phone shows it. */
export interface PhoneRequest {
  txId: string;
  identificationCode: string;
  hash: string;
  language: IamSmartLanguage;
  qrText: string;
  expiresAt: string;
}

export type PhoneActResult =
  { ok: true; code: IamSmartCode } | { ok: false; reason: 'unknown' | 'ended' | 'expired' };

export interface IamSmartSandbox extends IamSmartSigning {
  /** The phone's part: the requests waiting for an answer, and answering one. */
  phone: {
    list(): Promise<PhoneRequest[]>;
    act(txId: string, action: PhoneAction): Promise<PhoneActResult>;
  };
  /** The sandbox key's public half (PEM, P-256): a signature verifies with `verifySignature`. */
  publicKeyPem(): Promise<string>;
  /** Whether `signature` (base64) is the sandbox key's ECDSA signature over the hash's 32 bytes. */
  verifySignature(hash: string, signature: string): Promise<boolean>;
}

/**
 * Where the sandbox keeps its transactions and its signing key: in memory (one process; unit tests), or
 * in Postgres (api/adapters/iamsmart-store.ts), so that a signing started on one process of the portal
 * is polled, and approved on the phone page, through any other.
 */
export interface SandboxStore {
  /** The sandbox's P-256 key pair, the same for every process sharing the store. */
  keyPair(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }>;
  insert(tx: SandboxTransaction): Promise<void>;
  get(txId: string): Promise<SandboxTransaction | undefined>;
  /**
   * Reads the transaction and writes what `change` answers, atomically (a row lock): two processes
   * answering the same request cannot both win. Answers the stored result, or undefined when unknown.
   */
  update(
    txId: string,
    change: (tx: SandboxTransaction) => SandboxTransaction | undefined,
  ): Promise<SandboxTransaction | undefined>;
  /** The transactions still pending, oldest first. */
  pending(): Promise<SandboxTransaction[]>;
}

/** A store in this process's memory. */
export function memorySandboxStore(): SandboxStore {
  const transactions = new Map<string, SandboxTransaction>();
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    keyPair: () => Promise.resolve(pair),
    insert(tx) {
      transactions.set(tx.txId, tx);
      return Promise.resolve();
    },
    get: (txId) => Promise.resolve(transactions.get(txId)),
    update(txId, change) {
      const tx = transactions.get(txId);
      if (!tx) return Promise.resolve(undefined);
      const next = change({ ...tx });
      if (next) transactions.set(txId, next);
      return Promise.resolve(next ?? tx);
    },
    pending: () => Promise.resolve([...transactions.values()].filter((tx) => tx.outcome === 'pending')),
  };
}

export const IAM_SMART_SANDBOX_ORIGIN = 'https://sandbox.iamsmart.local';
export const IAM_SMART_SANDBOX_CERTIFICATE = 'iamsmart-sandbox-signing-certificate-1';
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const LANGUAGES: readonly IamSmartLanguage[] = ['en', 'zh-HK', 'zh-CN'];

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

type Outcome = 'pending' | 'signed' | 'cancelled' | 'noSigningFunction' | 'hkicMismatch';

export interface SandboxTransaction extends PhoneRequest {
  hkicHash: string;
  state: string;
  expiresAtMs: number;
  outcome: Outcome;
  signed: SignedContent | null;
}

const answer = <T>(code: IamSmartCode, content: T | null = null): IamSmartAnswer<T> => ({
  code,
  message: IAM_SMART_MESSAGES[code],
  content,
});

/**
 * The iAM Smart service in memory. Requests expire `ttlSeconds` after they are made, by `now` (ms epoch); the
 * phone (`sandbox.phone`) approves, declines, or plays an account without the signing function or a
 * signer with another HKIC. An approval signs the hash's 32 bytes with the sandbox's own P-256 key
 * (ECDSA with SHA-256, DER, base64).
 */
export function createIamSmartSandbox({
  now,
  ttlSeconds = 120,
  store = memorySandboxStore(),
}: {
  now: () => number;
  ttlSeconds?: number;
  /** Default: this process's memory. The app uses the Postgres store (several processes). */
  store?: SandboxStore;
}): IamSmartSandbox {
  const isExpired = (tx: SandboxTransaction) => tx.outcome === 'pending' && now() >= tx.expiresAtMs;

  const signHash = (key: KeyObject, hash: string) =>
    sign('sha256', Buffer.from(hash, 'hex'), key).toString('base64');

  const resultCode = (tx: SandboxTransaction): IamSmartCode => {
    if (isExpired(tx)) return IAM_SMART_CODES.expired;
    switch (tx.outcome) {
      case 'pending':
        return IAM_SMART_CODES.pending;
      case 'signed':
        return IAM_SMART_CODES.success;
      case 'cancelled':
        return IAM_SMART_CODES.cancelled;
      case 'noSigningFunction':
        return IAM_SMART_CODES.noSigningFunction;
      case 'hkicMismatch':
        return IAM_SMART_CODES.hkicMismatch;
    }
  };

  return {
    async requestSigning(request) {
      if (
        !HEX_SHA256.test(request.hash) ||
        !HEX_SHA256.test(request.hkicHash) ||
        !LANGUAGES.includes(request.language) ||
        typeof request.state !== 'string'
      )
        return answer<SigningRequestContent>(IAM_SMART_CODES.invalidRequest);
      const txId = randomUUID();
      const expiresAtMs = now() + ttlSeconds * 1000;
      const tx: SandboxTransaction = {
        txId,
        identificationCode: String(randomInt(0, 10_000)).padStart(4, '0'),
        hash: request.hash.toLowerCase(),
        hkicHash: request.hkicHash.toLowerCase(),
        language: request.language,
        state: request.state,
        qrText: `${IAM_SMART_SANDBOX_ORIGIN}/sign?tx=${encodeURIComponent(txId)}`,
        expiresAt: new Date(expiresAtMs).toISOString(),
        expiresAtMs,
        outcome: 'pending',
        signed: null,
      };
      await store.insert(tx);
      const { identificationCode, qrText, expiresAt } = tx;
      return answer(IAM_SMART_CODES.success, { txId, identificationCode, qrText, expiresAt });
    },

    async getSigningResult(txId) {
      const tx = await store.get(txId);
      if (!tx) return answer<SignedContent>(IAM_SMART_CODES.unknownTransaction);
      const code = resultCode(tx);
      return answer(code, code === IAM_SMART_CODES.success ? tx.signed : null);
    },

    async cancelSigning(txId) {
      let ended = false;
      const tx = await store.update(txId, (current) => {
        if (current.outcome !== 'pending' || isExpired(current)) {
          ended = true;
          return undefined;
        }
        return { ...current, outcome: 'cancelled' };
      });
      if (!tx) return answer<null>(IAM_SMART_CODES.unknownTransaction);
      return answer<null>(ended ? IAM_SMART_CODES.alreadyEnded : IAM_SMART_CODES.success);
    },

    phone: {
      async list() {
        return (await store.pending())
          .filter((tx) => !isExpired(tx))
          .map(({ txId, identificationCode, hash, language, qrText, expiresAt }) => ({
            txId,
            identificationCode,
            hash,
            language,
            qrText,
            expiresAt,
          }));
      },

      async act(txId, action) {
        const { privateKey } = await store.keyPair();
        let refused: 'expired' | 'ended' | undefined;
        const tx = await store.update(txId, (current) => {
          if (isExpired(current)) refused = 'expired';
          else if (current.outcome !== 'pending') refused = 'ended';
          if (refused) return undefined;
          // The phone's holder: the applicant, or (other-hkic) someone whose HKIC hashes otherwise.
          const phoneHkicHash =
            action === 'other-hkic' ? sha256Hex(`another holder of ${current.hkicHash}`) : current.hkicHash;
          if (action === 'decline') return { ...current, outcome: 'cancelled' };
          if (action === 'no-signing-function') return { ...current, outcome: 'noSigningFunction' };
          if (phoneHkicHash !== current.hkicHash) return { ...current, outcome: 'hkicMismatch' };
          return {
            ...current,
            outcome: 'signed',
            signed: {
              signature: signHash(privateKey, current.hash),
              certificate: IAM_SMART_SANDBOX_CERTIFICATE,
              signedAt: new Date(now()).toISOString(),
              hash: current.hash,
              state: current.state,
            },
          };
        });
        if (!tx) return { ok: false, reason: 'unknown' };
        if (refused) return { ok: false, reason: refused };
        return { ok: true, code: resultCode(tx) };
      },
    },

    async publicKeyPem() {
      const { publicKey } = await store.keyPair();
      return publicKey.export({ type: 'spki', format: 'pem' }).toString();
    },

    async verifySignature(hash, signature) {
      if (!HEX_SHA256.test(hash)) return false;
      const { publicKey } = await store.keyPair();
      try {
        return verify('sha256', Buffer.from(hash, 'hex'), publicKey, Buffer.from(signature, 'base64'));
      } catch {
        return false;
      }
    },
  };
}

/**
 * The adapter of a portal that has no iAM Smart service configured (production until the department's
 * client is plugged in, docs/decisions/008): every request is refused without reaching anything, so the
 * signing screen says iAM Smart cannot be reached and offers the e-Cert. The sandbox is never used there.
 */
export function unconfiguredIamSmart(): IamSmartSigning {
  const refused = <T>(): Promise<IamSmartAnswer<T>> =>
    Promise.reject(new Error('iAM Smart is not configured on this portal'));
  return {
    requestSigning: () => refused(),
    getSigningResult: () => refused(),
    cancelSigning: () => refused(),
  };
}
