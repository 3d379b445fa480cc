import { z } from 'zod';
import { langSchema, otpCodeSchema } from './otp';

/**
 * Save and resume ("drafts") and the address search: the limits, shared by the API (which enforces
 * them) and the UI (which shows them), the request bodies' zod schemas and the answers' shapes.
 * Error messages are i18n keys (namespace `api`), never English text. See docs/decisions/007-drafts.md.
 */

/** A draft stays valid this many days after its last save (env DRAFT_VALIDITY_DAYS; the spec's other reading is 7). */
export const DEFAULT_DRAFT_VALIDITY_DAYS = 14;
export const MAX_DRAFT_VALIDITY_DAYS = 365;
/** The JSON body limit of POST /api/drafts and PUT /api/drafts/:applicationNo (the rest of /api keeps 100 kB). */
export const DRAFT_BODY_LIMIT_BYTES = 256 * 1024;
/** All the text in `answers` (names and values) together: at most this many characters. */
export const DRAFT_ANSWERS_MAX_TEXT = 200_000;
/** At most this many answers (top-level keys: one per field of the form). */
export const DRAFT_MAX_ANSWERS = 200;
/** Inside an answer (an address, a table): at most this many keys per object ... */
export const DRAFT_MAX_NESTED_KEYS = 50;
/** ... this many items per list (rows of a table) ... */
export const DRAFT_MAX_LIST_ITEMS = 200;
/** ... this much nesting (answers -> table -> row -> cell is 3) ... */
export const DRAFT_MAX_DEPTH = 6;
/** ... and text of at most this many characters. */
export const DRAFT_MAX_TEXT_LENGTH = 10_000;
/** A field id (a key of `answers` or of an object inside it). */
export const ANSWER_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** The wizard step saved with a draft: its 1-based number (machines/flows/apply), at most this. */
export const DRAFT_MAX_STEP = 100;
/** The field ids whose answers are the contact a one-time code to resume goes to. */
export const APPLICANT_EMAIL_FIELD = 'applicantEmail';
export const APPLICANT_MOBILE_FIELD = 'applicantMobile';

/** Text, number, true/false, null, a list or an object: what a JSON answer may be. */
export type AnswerValue = string | number | boolean | null | AnswerValue[] | { [key: string]: AnswerValue };
export type DraftAnswers = Record<string, AnswerValue>;

function requiredText(field: string) {
  return z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? `validation.${field}.required`
        : `validation.${field}.notText`,
  });
}

/**
 * Text Postgres cannot store: NUL, and a UTF-16 surrogate without its pair (JSON allows both as
 * `\u0000` and `\ud800`). Such text is refused as a field error, never sent to the database.
 */
export const UNSTORABLE_TEXT =
  // eslint-disable-next-line no-control-regex -- NUL is the character this looks for
  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` can be stored as it is (no NUL, no lone surrogate). */
export const isStorableText = (text: string): boolean => !UNSTORABLE_TEXT.test(text);

interface WalkItem {
  value: unknown;
  path: (string | number)[];
  depth: number;
}

/**
 * Checks an answers object without recursion (a hostile body nested 100 000 deep must answer 400, not
 * overflow the stack): the shape and every limit above. Adds one issue per problem, at most 20.
 */
function checkAnswers(
  answers: Record<string, unknown>,
  addIssue: (message: string, path: (string | number)[]) => void,
) {
  let issues = 0;
  const report = (message: string, path: (string | number)[]) => {
    issues += 1;
    if (issues <= 20) addIssue(message, path);
  };
  const keys = Object.keys(answers);
  if (keys.length > DRAFT_MAX_ANSWERS) {
    report('validation.answers.tooMany', []);
    return;
  }
  // Characters of text seen (names and values): the size limit, counted on the way (no serialising).
  let text = 0;
  const stack: WalkItem[] = keys.map((key) => ({ value: answers[key], path: [key], depth: 1 }));
  for (const key of keys) {
    text += key.length;
    if (!ANSWER_KEY_PATTERN.test(key)) report('validation.answers.badKey', [key]);
  }
  while (stack.length > 0 && issues <= 20) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value === 'boolean') continue;
    if (typeof value === 'string') {
      text += value.length;
      if (value.length > DRAFT_MAX_TEXT_LENGTH) report('validation.answers.textTooLong', path);
      else if (!isStorableText(value)) report('validation.answers.badText', path);
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) report('validation.answers.badValue', path);
      continue;
    }
    if (depth >= DRAFT_MAX_DEPTH && typeof value === 'object') {
      report('validation.answers.tooDeep', path);
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > DRAFT_MAX_LIST_ITEMS) {
        report('validation.answers.tooManyItems', path);
        continue;
      }
      value.forEach((item, index) => stack.push({ value: item, path: [...path, index], depth: depth + 1 }));
      continue;
    }
    if (typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length > DRAFT_MAX_NESTED_KEYS) {
        report('validation.answers.tooManyKeys', path);
        continue;
      }
      for (const [key, item] of entries) {
        text += key.length;
        if (!ANSWER_KEY_PATTERN.test(key)) report('validation.answers.badKey', [...path, key]);
        else stack.push({ value: item, path: [...path, key], depth: depth + 1 });
      }
      continue;
    }
    report('validation.answers.badValue', path);
  }
  if (issues === 0 && text > DRAFT_ANSWERS_MAX_TEXT) report('validation.answers.tooLarge', []);
}

/**
 * The answers of an unfinished application: a JSON object of at most 200 answers, each text, a number,
 * true/false, null, a list or an object, within the limits above. This is the generic check; the form's
 * own lenient schema (the catalogue's `draftSchemaFor`) runs after it in the API.
 */
export const draftAnswersSchema = z
  // Not z.record: it copies the object, and a key named __proto__ would be lost on the way instead of
  // refused. The parsed JSON is checked as it is.
  .unknown()
  .superRefine((value, ctx) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'validation.answers.notObject', path: [] });
      return;
    }
    checkAnswers(value as Record<string, unknown>, (message, path) =>
      ctx.addIssue({ code: 'custom', message, path }),
    );
  })
  .transform((answers) => answers as DraftAnswers);

export const draftStepSchema = z
  .number({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? 'validation.step.required'
        : 'validation.step.invalid',
  })
  .int({ error: 'validation.step.invalid' })
  .min(1, { error: 'validation.step.invalid' })
  .max(DRAFT_MAX_STEP, { error: 'validation.step.invalid' });

export const draftVersionSchema = z
  .number({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? 'validation.version.required'
        : 'validation.version.invalid',
  })
  .int({ error: 'validation.version.invalid' })
  .min(1, { error: 'validation.version.invalid' })
  .max(2_147_483_647, { error: 'validation.version.invalid' });

export const formKeySchema = requiredText('formKey')
  .trim()
  .min(1, { error: 'validation.formKey.required', abort: true })
  .max(64, { error: 'validation.formKey.unknown', abort: true });

/** POST /api/drafts: the form, and optionally the answers and step so far. */
export const draftCreateSchema = z.object(
  {
    formKey: formKeySchema,
    answers: draftAnswersSchema.optional(),
    step: draftStepSchema.optional(),
    lang: langSchema.optional(),
  },
  { error: 'validation.body.notObject' },
);

/** PUT /api/drafts/:applicationNo: the version the browser read, and everything it holds now. */
export const draftSaveSchema = z.object(
  {
    version: draftVersionSchema,
    answers: draftAnswersSchema,
    step: draftStepSchema,
    lang: langSchema.optional(),
  },
  { error: 'validation.body.notObject' },
);

/**
 * The contacts of a draft that can be confirmed by a one-time code (spec §4: "the applicant or contact
 * person"): the applicant's email and mobile, and the contact person's (machines/rules/contacts.ts).
 */
export const CONTACT_CHANNELS = ['email', 'mobile', 'contactPersonEmail', 'contactPersonMobile'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

export const contactChannelSchema = z.enum(CONTACT_CHANNELS, {
  error: (issue) =>
    issue.input === undefined || issue.input === null
      ? 'validation.channel.required'
      : 'validation.channel.invalid',
});

/** POST /api/drafts/:applicationNo/contact/send */
export const contactSendSchema = z.object(
  { channel: contactChannelSchema, lang: langSchema.optional() },
  { error: 'validation.body.notObject' },
);

/** POST /api/drafts/:applicationNo/contact/verify */
export const contactVerifySchema = z.object(
  { channel: contactChannelSchema, code: otpCodeSchema, lang: langSchema.optional() },
  { error: 'validation.body.notObject' },
);

export type ContactSendRequest = z.infer<typeof contactSendSchema>;
export type ContactVerifyRequest = z.infer<typeof contactVerifySchema>;

/**
 * What a draft stores of its confirmed contacts (`drafts.verified_contacts`): per channel the normalised
 * value that was confirmed (lower-case email; 8-digit mobile) and when (ISO 8601).
 */
export type StoredVerifiedContacts = Partial<Record<ContactChannel, { value: string; at: string }>>;

/** The contacts that count as verified: those whose confirmed value still equals the current answer. */
export type VerifiedContacts = Partial<Record<ContactChannel, string>>;

/** 200 of POST /api/drafts/:applicationNo/contact/send. */
export interface ContactCodeSentData {
  resendAfterSeconds: number;
  expiresInSeconds: number;
  /** Where the code went, masked: `c***@example.hk`, `****4567`. */
  to: string;
}

/** 200 of POST /api/drafts/:applicationNo/contact/verify. */
export interface ContactVerifiedData {
  verifiedContacts: VerifiedContacts;
}

export type DraftCreateRequest = z.infer<typeof draftCreateSchema>;
export type DraftSaveRequest = z.infer<typeof draftSaveSchema>;

/** 201 of POST /api/drafts. `token` opens this draft (Authorization: Bearer). */
export interface DraftCreatedData {
  applicationNo: string;
  version: 1;
  /** ISO 8601. */
  validUntil: string;
  token: string;
}

/** 200 of PUT /api/drafts/:applicationNo. */
export interface DraftSavedData {
  version: number;
  validUntil: string;
}

/** `data` of 409 DRAFT_STALE: a newer copy was saved (elsewhere); nothing was overwritten. */
export interface DraftStaleData {
  currentVersion: number;
  updatedAt: string;
}

/** 200 of GET /api/drafts/:applicationNo. */
export interface DraftData {
  applicationNo: string;
  formKey: string;
  answers: DraftAnswers;
  /** The 1-based step number the applicant was on; null if none was saved yet. */
  step: number | null;
  version: number;
  validUntil: string;
  updatedAt: string;
  /** The applicant's email and mobile confirmed by a one-time code and unchanged since. */
  verifiedContacts: VerifiedContacts;
  /**
   * When the application was submitted (ISO), else null: a tab reloaded after submitting (or whose draft
   * another tab submitted) starts a new form instead of editing one that can no longer be saved.
   */
  submittedAt: string | null;
}

/** 200 of POST /api/drafts/resume/verify: a new token for the draft, and where the applicant left off. */
export interface DraftResumedData {
  token: string;
  applicationNo: string;
  formKey: string;
  step: number | null;
  version: number;
  validUntil: string;
}

// ---------------------------------------------------------------------------------------------------
// Address search (GET /api/address): the query and the answer, in the shape of the government's
// Address Lookup Service (ALS, https://www.als.gov.hk/lookup).

export const ADDRESS_QUERY_MIN_LENGTH = 2;
export const ADDRESS_QUERY_MAX_LENGTH = 120;
export const ADDRESS_RESULTS_DEFAULT = 10;
export const ADDRESS_RESULTS_MAX = 50;

const queryText = (field: 'q' | 'n') =>
  z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? `validation.${field}.required`
        : `validation.${field}.notText`,
  });

/** `?q=` (2 to 120 characters, full-width folded, spaces collapsed) and `?n=` (1 to 50, default 10). */
export const addressQuerySchema = z.object({
  q: queryText('q')
    .overwrite((value) => value.normalize('NFKC').replace(/\s+/g, ' ').trim())
    .min(ADDRESS_QUERY_MIN_LENGTH, { error: 'validation.q.tooShort', abort: true })
    .max(ADDRESS_QUERY_MAX_LENGTH, { error: 'validation.q.tooLong' }),
  n: queryText('n')
    .regex(/^[0-9]{1,3}$/, { error: 'validation.n.invalid', abort: true })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'validation.n.invalid' })
        .max(ADDRESS_RESULTS_MAX, { error: 'validation.n.invalid' }),
    )
    .optional()
    .transform((n) => n ?? ADDRESS_RESULTS_DEFAULT),
});

export type AddressQuery = z.infer<typeof addressQuerySchema>;

/** ALS: street name and building number (EngStreet / ChiStreet). */
export interface AlsStreet {
  StreetName: string;
  BuildingNoFrom?: string;
  BuildingNoTo?: string;
  LocationName?: string;
}

export interface AlsEngPremisesAddress {
  BuildingName?: string;
  EngEstate?: { EstateName: string };
  EngBlock?: { BlockDescriptor: string };
  EngStreet?: AlsStreet;
  EngDistrict: { DcDistrict: string };
  Region: string;
}

export interface AlsChiPremisesAddress {
  BuildingName?: string;
  ChiEstate?: { EstateName: string };
  ChiBlock?: { BlockDescriptor: string };
  ChiStreet?: AlsStreet;
  ChiDistrict: { DcDistrict: string };
  Region: string;
}

/** One suggestion, as ALS answers it, plus `Lot` (ours: ALS has no lot numbers) for New Territories lots. */
export interface AlsSuggestedAddress {
  Address: {
    PremisesAddress: {
      EngPremisesAddress: AlsEngPremisesAddress;
      ChiPremisesAddress: AlsChiPremisesAddress;
      GeoAddress: string;
      GeospatialInformation?: { Latitude: string; Longitude: string; Northing: string; Easting: string };
      /** Ours: 'Lot No. 1234 in D.D. 112' / '丈量約份第112約地段第1234號'. */
      Lot?: { LotNo: string; DdNo: string; EngLot: string; ChiLot: string };
    };
  };
  /** 0 to 100: how well the address matches the query. */
  ValidationInformation: { Score: number };
}

/** `data` of 200 GET /api/address: best first; an empty list when nothing matches. */
export interface AddressSearchData {
  SuggestedAddress: AlsSuggestedAddress[];
}
