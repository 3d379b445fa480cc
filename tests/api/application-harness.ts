import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppOptions } from '../../api/app';
import type { PdfChecker } from '../../api/modules/shared/uploads/pdf-check-pool';
import { type IamSmartSandbox, type PhoneAction, createIamSmartSandbox } from '../../api/adapters/iamsmart';
import { createLocalStorage, type DocumentStorage } from '../../api/adapters/storage';
import type { DocumentData } from '../../machines/rules/submission';
import { fieldById, formByKey } from '../../machines/forms';
import type { FormDefinition } from '../../machines/forms/types';
import type { DraftCreatedData, DraftSavedData } from '../../machines/rules/drafts';
import { TestClock } from '../support/clock';
import type { EnvelopeBody } from '../support/http';
import { codeIn } from '../support/login';
import { type PdfBytes, landscapeA4 } from '../support/pdf-corpus';
import { type TestPki, makeTestPki } from '../support/test-ca';
import { type DraftHarness, startDraftHarness } from './drafts-harness';
import type { DocumentLimits } from '../../api/modules/shared/uploads/checked-upload';
import type { IamSmartStarted, SigningStatusData } from '../../api/modules/signing/signing.types';
import type { SubmissionData } from '../../machines/rules/submission';

/**
 * The app of the draft harness with what the documents, signing and submission routes need: a temporary
 * document storage directory, small upload limits (so a 413 needs kilobytes, not 50 MB), the iAM Smart
 * sandbox (answered through the development routes, as the sandbox's phone) and the test PKI's trust for
 * e-Cert signatures. Plus a helper that takes a draft of form A2 to "ready to sign".
 */

/** Small limits: a file of 256 KiB, 384 KiB per application. */
export const TEST_LIMITS: DocumentLimits = { maxFileBytes: 256 * 1024, maxTotalBytes: 384 * 1024 };

export type Reply<T = unknown> = { status: number; headers: Headers; body: EnvelopeBody<T> };

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallOptions {
  token?: string;
  /** FormData goes as multipart, a string as is, anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A draft as the tests follow it: its number, token, last version and answers. */
export interface DraftState {
  applicationNo: string;
  token: string;
  version: number;
  answers: Record<string, unknown>;
  /** The applicant's email (unique per draft, so the per-address code limits never bite). */
  email: string;
}

export interface ReadyDraft extends DraftState {
  /** The required documents as uploaded, with the bytes sent. */
  documents: (DocumentData & { content: PdfBytes })[];
}

export interface ApplicationHarness extends DraftHarness {
  storageDir: string;
  limits: DocumentLimits;
  iamSmart: IamSmartSandbox;
  pki: TestPki;
  form: FormDefinition;
  call<T = unknown>(method: Method, path: string, options?: CallOptions): Promise<Reply<T>>;
  /** A GET that keeps the body as bytes (downloads); `body` is the envelope when the answer is JSON. */
  download(
    path: string,
    token?: string,
  ): Promise<{ status: number; headers: Headers; bytes: Uint8Array; body?: EnvelopeBody }>;
  /** POST documents: `documentType` first (left out when undefined), then `file`. `query` e.g. '?lang=tc'. */
  upload(
    draft: Pick<DraftState, 'applicationNo' | 'token'>,
    documentType: string | undefined,
    content: Uint8Array,
    fileName?: string,
    query?: string,
  ): Promise<Reply<DocumentData>>;
  /** The names in the storage directory, sorted (files and any `.part` left behind). */
  storedFiles(): Promise<string[]>;
  /** The document storage the app uses (over `storageDir`). */
  storage: DocumentStorage;
  /** Form A2's example answers with a fresh applicant email, and `overrides`. */
  completeAnswers(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** POST /api/drafts (A2) with these answers (default: complete ones); throws unless 201. */
  newDraft(answers?: Record<string, unknown>): Promise<DraftState>;
  /** PUT the answers; on 200 the draft's version and answers follow. */
  save(draft: DraftState, answers: Record<string, unknown>): Promise<Reply<DraftSavedData>>;
  /** Confirms the applicant email with the contact code read from the SMTP server. */
  confirmEmail(draft: DraftState): Promise<void>;
  /** Confirms the contact person's email (answer `contactEmail`) the same way. */
  confirmContactPersonEmail(draft: DraftState): Promise<void>;
  /**
   * A draft with complete answers saved, its email and its contact person's email (when given) confirmed
   * and every required document uploaded.
   */
  readyDraft(overrides?: Record<string, unknown>): Promise<ReadyDraft>;
  /** POST signing/iamsmart; throws unless 201. */
  startIamSmart(draft: DraftState): Promise<IamSmartStarted>;
  /** The sandbox's phone answers the pending request for `digest` (through /api/dev/iamsmart). */
  phone(digest: string, action: PhoneAction): Promise<Reply<{ code: string }>>;
  iamSmartStatus(draft: DraftState, requestId: string): Promise<Reply<SigningStatusData>>;
  /** Starts iAM Smart signing, approves it on the phone, and answers the signing's reference. */
  sign(draft: DraftState): Promise<string>;
  submit(draft: DraftState, idempotencyKey?: string, query?: string): Promise<Reply<SubmissionData>>;
}

let counter = 0;

/** A fresh Idempotency-Key. */
export const newKey = () => `key-${process.pid}-${Date.now()}-${(counter += 1)}-abcdef`;

export const draftPath = (applicationNo: string) => `/api/drafts/${encodeURIComponent(applicationNo)}`;

export async function startApplicationHarness(
  app: Pick<AppOptions, 'logger' | 'devRoutes' | 'rateLimits'> & {
    checker?: PdfChecker;
    /** The form of the drafts (default A2): a self-certification's tests use theirs. */
    formKey?: string;
    /** What the app stores through, over the local directory (a disk that fills up). */
    wrapStorage?: (local: DocumentStorage) => DocumentStorage;
  } = {},
): Promise<ApplicationHarness> {
  const { checker, formKey = 'a2', wrapStorage = (local) => local, ...appOptions } = app;
  const clock = new TestClock();
  const pki = await makeTestPki(clock.now());
  const storageDir = await mkdtemp(path.join(tmpdir(), 'bd-documents-'));
  const storage = createLocalStorage(storageDir);
  const iamSmart = createIamSmartSandbox({ now: () => clock.now().getTime() });
  const form = formByKey(formKey);
  if (!form) throw new Error(`form ${formKey} missing`);
  const base = await startDraftHarness({
    login: {
      clock,
      app: {
        documents: { storage: wrapStorage(storage), limits: TEST_LIMITS, checker },
        signing: { iamSmart, ecertTrust: pki.trust },
        ...appOptions,
      },
    },
  });

  async function call<T = unknown>(
    method: Method,
    urlPath: string,
    { token, body, headers = {} }: CallOptions = {},
  ): Promise<Reply<T>> {
    const isForm = body instanceof FormData;
    const response = await fetch(`${base.baseUrl}${urlPath}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined || isForm || typeof body === 'string'
          ? {}
          : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : isForm || typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : null) as EnvelopeBody<T>,
    };
  }

  /** A contact code sent to `to` on `channel`, read from the SMTP server and verified; throws unless 200. */
  async function confirm(draft: DraftState, channel: string, to: string) {
    const before = base.smtp.mails.length;
    const sent = await call('POST', `${draftPath(draft.applicationNo)}/contact/send`, {
      token: draft.token,
      body: { channel },
    });
    if (sent.status !== 200)
      throw new Error(`contact send answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    await base.messages.settled();
    const mail = base.smtp.mails.slice(before).find((m) => m.to.includes(to.toLowerCase()));
    if (!mail) throw new Error(`no mail to ${to}`);
    const verified = await call('POST', `${draftPath(draft.applicationNo)}/contact/verify`, {
      token: draft.token,
      body: { channel, code: codeIn(mail.text) },
    });
    if (verified.status !== 200)
      throw new Error(`contact verify answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  }

  const harness: ApplicationHarness = {
    ...base,
    storageDir,
    limits: TEST_LIMITS,
    iamSmart,
    pki,
    form,
    call,

    async download(urlPath, token) {
      const response = await fetch(`${base.baseUrl}${urlPath}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
      return {
        status: response.status,
        headers: response.headers,
        bytes,
        ...(isJson ? { body: JSON.parse(Buffer.from(bytes).toString('utf8')) as EnvelopeBody } : {}),
      };
    },

    upload(draft, documentType, content, fileName = 'document.pdf', query = '') {
      const form = new FormData();
      if (documentType !== undefined) form.append('documentType', documentType);
      form.append('file', new Blob([content.slice()], { type: 'application/pdf' }), fileName);
      return call<DocumentData>('POST', `${draftPath(draft.applicationNo)}/documents${query}`, {
        token: draft.token,
        body: form,
      });
    },

    storage,
    async storedFiles() {
      return (await readdir(storageDir).catch(() => [] as string[])).sort();
    },

    completeAnswers(overrides = {}) {
      counter += 1;
      return {
        ...form.example,
        applicantEmail: `applicant.${counter}.${process.pid}@example.hk`,
        ...(fieldById(form, 'contactEmail')
          ? { contactEmail: `contact.${counter}.${process.pid}@example.hk` }
          : {}),
        ...overrides,
      };
    },

    async newDraft(answers = harness.completeAnswers()) {
      const res = await call<DraftCreatedData>('POST', '/api/drafts', {
        body: { formKey: form.key, answers, step: 1, lang: 'en' },
      });
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
      const email = typeof answers.applicantEmail === 'string' ? answers.applicantEmail : '';
      return {
        applicationNo: res.body.data.applicationNo,
        token: res.body.data.token,
        version: 1,
        answers,
        email,
      };
    },

    async save(draft, answers) {
      const res = await call<DraftSavedData>('PUT', draftPath(draft.applicationNo), {
        token: draft.token,
        body: { version: draft.version, answers, step: 1 },
      });
      if (res.status === 200) {
        draft.version = res.body.data.version;
        draft.answers = answers;
      }
      return res;
    },

    async confirmEmail(draft) {
      await confirm(draft, 'email', draft.email);
    },

    async confirmContactPersonEmail(draft) {
      await confirm(draft, 'contactPersonEmail', String(draft.answers.contactEmail));
    },

    async readyDraft(overrides = {}) {
      const draft = await harness.newDraft(harness.completeAnswers(overrides));
      await harness.confirmEmail(draft);
      if (typeof draft.answers.contactEmail === 'string' && draft.answers.contactEmail.trim())
        await harness.confirmContactPersonEmail(draft);
      const documents: ReadyDraft['documents'] = [];
      for (const required of form.documents.filter((d) => d.required)) {
        const content = await landscapeA4();
        const res = await harness.upload(draft, required.id, content, `${required.id}.pdf`);
        if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
        documents.push({ ...res.body.data, content });
      }
      return { ...draft, documents };
    },

    async startIamSmart(draft) {
      const res = await call<IamSmartStarted>('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart`, {
        token: draft.token,
      });
      if (res.status !== 201) throw new Error(`signing answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },

    async phone(digest, action) {
      const pending = await call<{ txId: string; hash: string }[]>('GET', '/api/dev/iamsmart');
      const tx = pending.body.data.find((p) => p.hash === digest);
      if (!tx) throw new Error(`no pending iAM Smart request for ${digest}`);
      return call<{ code: string }>('POST', `/api/dev/iamsmart/${encodeURIComponent(tx.txId)}`, {
        body: { action },
      });
    },

    iamSmartStatus: (draft, requestId) =>
      call<SigningStatusData>('GET', `${draftPath(draft.applicationNo)}/signing/iamsmart/${requestId}`, {
        token: draft.token,
      }),

    async sign(draft) {
      const started = await harness.startIamSmart(draft);
      const approved = await harness.phone(started.digest, 'approve');
      if (approved.status !== 200) throw new Error(`phone answered ${approved.status}`);
      const status = await harness.iamSmartStatus(draft, started.requestId);
      if (status.body.data.status !== 'signed' || !status.body.data.reference)
        throw new Error(`signing ended ${JSON.stringify(status.body)}`);
      return status.body.data.reference;
    },

    submit: (draft, idempotencyKey = newKey(), query = '') =>
      call<SubmissionData>('POST', `${draftPath(draft.applicationNo)}/submission${query}`, {
        token: draft.token,
        headers: { 'idempotency-key': idempotencyKey },
      }),

    async close() {
      await base.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
  return harness;
}
