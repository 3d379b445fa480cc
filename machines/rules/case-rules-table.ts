import { CASE_TRANSITIONS, type CaseActor, type CaseTransition } from './case-lifecycle';
import { RULES_IN_WORDS } from './case-rules';

/**
 * The case's rules as one table (event, from → to, who, rule in words, record, notice), built from the
 * transition table and RULES_IN_WORDS: `npm run docs:flows` writes it into docs/flows/case-lifecycle.md,
 * and the diagram test fails when the page differs.
 */
const WHO: Record<CaseActor, string> = {
  applicant: 'applicant',
  ap: 'AP',
  rse: 'RSE',
  caseOfficer: 'case officer',
  seniorOfficer: 'senior officer',
  system: 'system',
};

const statuses = (t: CaseTransition) =>
  t.from.length >= 8 ? 'any open status' : t.from.map((s) => `\`${s}\``).join(', ');

export function caseRulesTable(): string {
  const rows = (CASE_TRANSITIONS as readonly CaseTransition[]).map((t) =>
    [
      `\`${t.event}\``,
      `${statuses(t)} → ${t.to === null ? '(same)' : `\`${t.to}\``}`,
      t.by.map((a) => WHO[a]).join(', '),
      RULES_IN_WORDS[t.event as keyof typeof RULES_IN_WORDS],
      t.history === null ? 'audit only' : `\`${t.history}\` + audit`,
      t.notifies.length === 0 ? '—' : t.notifies.map((r) => (r === 'caseOfficer' ? 'case officer' : r)).join(', '),
    ].join(' | '),
  );
  return [
    '| event | status (from → to) | who | rule | record | notice |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}
