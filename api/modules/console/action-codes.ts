import type { CaseEventFacts } from '../../../machines/rules/case-rules';
import type { ConsoleEvent } from '../../../machines/rules/staff';

/** The console's actions' references and own facts (api/modules/console/console.service.ts). */

/** The prefix of each console action's reference (`<code>-<application number>-<n>`). */
export const CODES: Record<ConsoleEvent, string> = {
  'case.assign': 'ASG',
  'case.acknowledge': 'ACK',
  'case.examine': 'EXM',
  'lor.issue': 'LOR',
  'compliance.record': 'CMP',
  'inspection.schedule': 'ISN',
  'inspection.record': 'IRP',
  'certificate.issue': 'CRT',
  'case.reject': 'REJ',
  'case.close': 'CLS',
  'inspection.reschedule': 'ISR',
  'inspection.cancel': 'ISC',
  'lor.withdraw': 'LRW',
  'certificate.revoke': 'CRV',
  'case.reopen': 'ROP',
  'information.request': 'RFI',
  'information.extend': 'RFE',
  'information.withdraw': 'RFW',
  'message.send': 'MSG',
};

/** The facts of an officer's answers the case's rules check: a date, a reply-by date, a result, a request. */
export function ownFacts(answers: Record<string, unknown>): CaseEventFacts {
  const own: CaseEventFacts = {};
  if (typeof answers.date === 'string') own.date = answers.date;
  if (typeof answers.replyBy === 'string') own.replyBy = answers.replyBy;
  if (answers.result === 'PASS' || answers.result === 'FAIL') own.result = answers.result;
  if (typeof answers.requestId === 'number') own.requestId = answers.requestId;
  return own;
}
