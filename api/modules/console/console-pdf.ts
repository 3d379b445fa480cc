import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import type { Language } from '../../../machines/rules/language';
import type { StaffContact } from '../../../machines/rules/staff';
import { parseMinorWorksItem, type MinorWorksRow } from '../../../machines/rules/minor-works';
import { GREY, PdfBlocks, writePdfBlocks } from '../shared';
import { formatHkDateBilingual } from '../../../machines/rules/dates';

/**
 * What the department issues on a case, as bilingual PDFs (English and Chinese on every line, like the
 * application PDF, with the same fonts and writer: api/modules/shared/pdf/application-pdf.ts): the Letter of
 * Requirements (spec §3: BD reference, date, Category 1 and Category 2 items, minor works rows) and the
 * certificate or notice. Stored as case documents the applicant downloads from the case page.
 */

export interface LetterOfRequirements {
  bdReference: string;
  date: string;
  category1: string[];
  category2: string[];
  minorWorks: MinorWorksRow[];
}

interface Common {
  applicationNo: string;
  /** The letter's reference (LOR-…, CRT-…), which /verify checks (docs/decisions/038-sealed-letters.md). */
  reference: string;
  formCode: string;
  premises: string | null;
  officer: StaffContact;
  language: Language;
  issuedAt: Date;
}

async function newDocument(title: string, at: Date): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(title);
  doc.setProducer('Buildings Department portal (pdf-lib)');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  doc.setLanguage('en');
  return doc;
}

function heading(b: PdfBlocks, titleEn: string, titleZh: string, c: Common) {
  b.text('Buildings Department / 屋宇署', { size: 11, color: GREY });
  b.text(titleEn, { size: 15, gapBefore: 2 });
  b.text(titleZh, { size: 15 });
  b.text(`Application No. / 申請編號: ${c.applicationNo} (Form / 表格 ${c.formCode})`, {
    size: 11,
    gapBefore: 6,
  });
  if (c.premises) b.text(`Premises / 處所: ${c.premises}`, { size: 10 });
  b.text(`Reference / 參考編號: ${c.reference} (check it at /verify / 可於 /verify 核實)`, {
    size: 9,
    color: GREY,
  });
  b.text(`Issued / 發出日期: ${formatHkDateBilingual(c.issuedAt, true)} (Hong Kong time / 香港時間)`, {
    size: 9,
    color: GREY,
  });
  b.rule(8);
}

function signature(b: PdfBlocks, c: Common) {
  b.rule(10);
  b.text(`${c.officer.nameEn} ${c.officer.nameZh}`, { size: 10.5, gapBefore: 4 });
  b.text(`${c.officer.postEn} / ${c.officer.postZh}`, { size: 9, color: GREY });
  b.text(`Tel. / 電話: ${c.officer.telephone}    Email / 電郵: ${c.officer.email}`, { size: 9, color: GREY });
}

export async function renderLetterOfRequirements(lor: LetterOfRequirements, c: Common): Promise<Uint8Array> {
  const doc = await newDocument(`Letter of Requirements – ${c.applicationNo}`, c.issuedAt);
  const b = new PdfBlocks();
  heading(b, 'Letter of Requirements', '規定事項函件', c);
  b.text(`BD Reference / 屋宇署檔號: ${lor.bdReference}`, { size: 11 });
  b.text(`Date / 日期: ${formatHkDateBilingual(lor.date)}`, { size: 11 });
  const list = (titleEn: string, titleZh: string, rows: string[]) => {
    b.text(`${titleEn} / ${titleZh}`, { size: 12, gapBefore: 10 });
    b.rule(3);
    if (rows.length === 0) b.text('Nil / 無', { size: 10.5, indent: 12 });
    rows.forEach((row, i) => b.text(`${i + 1}. ${row}`, { size: 10.5, indent: 12, gapBefore: 3 }));
  };
  list('Category 1 items', '第 1 類事項', lor.category1);
  list('Category 2 items', '第 2 類事項', lor.category2);
  b.text('Minor works / 小型工程', { size: 12, gapBefore: 10 });
  b.rule(3);
  if (lor.minorWorks.length === 0) b.text('Nil / 無', { size: 10.5, indent: 12 });
  lor.minorWorks.forEach((row, i) => {
    const item = parseMinorWorksItem(row.item);
    b.text(
      `No. / 編號 ${i + 1}    Item / 項目 ${item ? `Class ${item.class} ${item.code}` : row.item}    ` +
        `Submission No. / 呈交編號 ${row.submissionNo}`,
      { size: 10, indent: 12, gapBefore: 4 },
    );
    b.text(row.description, { size: 10.5, indent: 24 });
  });
  signature(b, c);
  return writePdfBlocks(doc, c.language, b);
}

export interface CertificateData {
  kind: 'CERTIFICATE' | 'NOTICE';
  inspectedOn: string | null;
  remarks?: string;
}

export async function renderCertificate(cert: CertificateData, c: Common): Promise<Uint8Array> {
  const [en, zh] =
    cert.kind === 'CERTIFICATE'
      ? ['Certificate of Building Safety', '樓宇安全證明書']
      : ['Notice of Building Safety', '樓宇安全通知書'];
  const doc = await newDocument(`${en} – ${c.applicationNo}`, c.issuedAt);
  const b = new PdfBlocks();
  heading(b, en, zh, c);
  b.text(
    cert.kind === 'CERTIFICATE'
      ? 'The Buildings Department certifies that the premises above meet the building safety requirements ' +
          'for the application named.'
      : 'The Buildings Department gives notice that the premises above do not yet meet the building safety ' +
          'requirements for the application named.',
    { size: 10.5, gapBefore: 6 },
  );
  b.text(
    cert.kind === 'CERTIFICATE'
      ? '屋宇署證明上述處所符合所述申請的樓宇安全規定。'
      : '屋宇署現通知上述處所尚未符合所述申請的樓宇安全規定。',
    { size: 10.5, gapBefore: 4 },
  );
  if (cert.inspectedOn) b.text(`Inspected on / 巡查日期: ${cert.inspectedOn}`, { size: 10.5, gapBefore: 8 });
  if (cert.remarks) b.text(`Remarks / 備註: ${cert.remarks}`, { size: 10.5, gapBefore: 4 });
  signature(b, c);
  return writePdfBlocks(doc, c.language, b);
}

/** A letter of a decision or its correction: rejection, withdrawal of a letter, revocation, reopening. */
export interface DecisionLetter {
  titleEn: string;
  titleZh: string;
  statementEn: string;
  statementZh: string;
  reason: string;
}

/** The decision letters the console issues, by event (docs/flows/case-rules.md). */
export const DECISION_LETTERS = {
  'case.reject': {
    titleEn: 'Rejection of Application',
    titleZh: '拒絕申請通知書',
    statementEn: 'The Buildings Department has rejected the application named above, for the reason below.',
    statementZh: '屋宇署已拒絕上述申請，理由如下。',
  },
  'lor.withdraw': {
    titleEn: 'Withdrawal of Letter of Requirements',
    titleZh: '撤回規定事項函件通知書',
    statementEn:
      'The Buildings Department has withdrawn the Letter of Requirements issued on the application named ' +
      'above, for the reason below. The application returns to examination.',
    statementZh: '屋宇署已撤回就上述申請發出的規定事項函件，理由如下。申請將重新審查。',
  },
  'certificate.revoke': {
    titleEn: 'Revocation of Certificate',
    titleZh: '撤銷證書通知書',
    statementEn:
      'The Buildings Department has revoked the certificate issued on the application named above, for ' +
      'the reason below. The certificate no longer stands.',
    statementZh: '屋宇署已撤銷就上述申請發出的證書，理由如下。該證書已不再有效。',
  },
  'case.reopen': {
    titleEn: 'Reopening of Application',
    titleZh: '重新處理申請通知書',
    statementEn:
      'The Buildings Department has reopened the application named above, for the reason below. The ' +
      'application returns to examination.',
    statementZh: '屋宇署已重新處理上述申請，理由如下。申請將重新審查。',
  },
} as const satisfies Record<string, Omit<DecisionLetter, 'reason'>>;

export async function renderDecisionLetter(letter: DecisionLetter, c: Common): Promise<Uint8Array> {
  const doc = await newDocument(`${letter.titleEn} – ${c.applicationNo}`, c.issuedAt);
  const b = new PdfBlocks();
  heading(b, letter.titleEn, letter.titleZh, c);
  b.text(letter.statementEn, { size: 10.5, gapBefore: 6 });
  b.text(letter.statementZh, { size: 10.5, gapBefore: 4 });
  b.text('Reason / 理由', { size: 12, gapBefore: 10 });
  b.rule(3);
  b.text(letter.reason, { size: 10.5, indent: 12, gapBefore: 3 });
  signature(b, c);
  return writePdfBlocks(doc, c.language, b);
}
