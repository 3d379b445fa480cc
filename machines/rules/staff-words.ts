/**
 * One text the applicant, AP or RSE wrote, exactly as written (docs/decisions/037-applicant-words-in-console.md):
 * the follow-up form's field it answers (WRITTEN_FIELDS) and the BCP 47 tag of the text's language as its
 * characters show it ('en', 'zh-Hant', 'zh-Hans'), null when they do not (digits, a date, a telephone number).
 */
export interface WrittenText {
  field: WrittenField;
  text: string;
  lang: string | null;
}

/**
 * The fields of the follow-up forms whose answers are the party's own words or choices for the officer, in the
 * order the console shows them: Submit Supporting Document's description, revision and note; the inspection
 * request's preferred dates, site contact and access notes; the withdrawal's reason.
 */
export const WRITTEN_FIELDS = [
  'description',
  'revision',
  'note',
  'preferredDate1',
  'preferredDate2',
  'preferredDate3',
  'inspectionContactName',
  'inspectionContactTelephone',
  'accessNotes',
  'reason',
] as const;
export type WrittenField = (typeof WRITTEN_FIELDS)[number];

/** What a party wrote with one follow-up: who ('APPLICANT' | 'AP' | 'RSE'), when, and the texts. */
export interface ApplicantWordsData {
  by: string;
  at: string;
  /** The follow-up form's key ('submitDocument', 'requestForInspection', 'withdrawApplication' ...). */
  formKey: string;
  texts: WrittenText[];
}
