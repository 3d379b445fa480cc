import type { CaseEventType } from '../../rules/case-lifecycle';
import type { DocumentType } from '../../rules/history';
import type { Holidays } from '../../rules/working-days';
import type { FollowUpKey } from './entries';
import type { CatalogueKey } from '../catalogue-index';
import type { IssueParams } from '../errors';
import type { RequiredDocument, Section } from '../types';

/**
 * The steps a follow-up may have, in this order: fill, then optionally upload (files of the listed types,
 * with the application's checks), preview and sign (the answers and files, iAM Smart or e-Cert), then done.
 */
export type FollowUpStep =
  | { kind: 'fill'; id: string; titleKey: string; sections: readonly Section[] }
  | { kind: 'upload'; documents: readonly RequiredDocument[] }
  | { kind: 'preview' }
  | { kind: 'sign' }
  | { kind: 'done' };

/** What a follow-up form can be prefilled from: the case as the applicant submitted or last updated it. */
export interface CaseFacts {
  applicationNo: string;
  applicantName: string | null;
  contactName: string | null;
  contactTelephone: string | null;
  /** The case's information as it is now: its latest version (api/modules/cases/case-versions.ts). */
  information: { version: number; answers: Record<string, unknown> };
}

/** The context of the checks that need more than the answers: today in Hong Kong and the holidays. */
export interface CheckContext {
  today: string;
  holidays: Holidays;
  /** The case's information the form was opened on (the update forms compare with it). */
  base?: Readonly<Record<string, unknown>>;
}

/** A problem found by a definition's own check: the field and a `forms` key with its parameters. */
export interface CrossIssue {
  field: string;
  messageKey: string;
  params?: IssueParams;
}

/**
 * A follow-up form: a form of the catalogue that starts on an existing case (withdraw, request an
 * inspection, and after them the update, document and appointment forms). It is data on one generic path:
 * the case action machine (machines/flows/case-action.machine.ts) walks its steps, the API
 * (api/modules/cases/cases.service.ts) validates with its schema, asks the case lifecycle whether its `event` is allowed
 * now, and writes the change, the history row and the audit event in one transaction. docs/forms.md.
 */
export interface FollowUpDefinition {
  kind: 'followUp';
  /** The key in i18n `flows:forms.<key>` and `case:intro.<key>` (and the other `case:` screens), and in the API path. */
  key: FollowUpKey;
  /** Printed in references: `<code>-<application number>-<n>` (INS-A2-2026-001024-1). */
  code: string;
  /** The lifecycle event it sends. */
  event: CaseEventType;
  /** The history row's document type. */
  documentType: DocumentType;
  /** The history row's document type when it depends on the answers (a revised layout plan). */
  historyType?: (answers: Readonly<Record<string, unknown>>) => DocumentType;
  /** Its route (every step is shown on it, in the order of `steps`). */
  route: string;
  steps: readonly FollowUpStep[];
  /** Answers to start with, from the case. */
  prefill?: (facts: CaseFacts) => Record<string, unknown>;
  /** A further page the done screen links to (the appointments of the case), with its i18n key. */
  doneLink?: { to: string; labelKey: string };
  /** False while the API of a form is built but its pages are not: its routes stay planned pages. */
  pagesOpen?: false;
  /** The route of the last screen when it has its own (`/form-usi-step2`, Update Success). */
  doneRoute?: string;
  /** The form makes a new version of the case's information (the update forms): it names the version it
   * was opened on, and a case changed since is refused (409 CASE_STALE). */
  versioned?: true;
  /** The application forms (catalogue keys) it is for; every case when absent. */
  applicationForms?: readonly CatalogueKey[];
  /** The form for a case of this application form (its printed code): the update forms take the
   * application's sections. Undefined when the follow-up is not for that form. */
  forApplication?: (formCode: string) => FollowUpDefinition | undefined;
  /** Rules across fields, or that need today's date and the holidays; `forms` keys. */
  check?: (answers: Readonly<Record<string, unknown>>, context: CheckContext) => CrossIssue[];
}
