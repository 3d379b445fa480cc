import { describe, expect, it } from 'vitest';
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { AUDIT_ACTIONS, auditChanges, staffIdsOf } from '../../machines/rules/audit-words';
import { CASE_EVENT_TYPES } from '../../machines/rules/case-lifecycle';
import { eventKey } from '../../machines/rules/staff';

describe('the audit trail in words (docs/console.md, "Audit trail")', () => {
  it('lists the fields that changed, and those recorded on one side', () => {
    expect(
      auditChanges({ status: 'ASSIGNED', assignedTo: null }, { status: 'ASSIGNED', assignedTo: 3 }),
    ).toEqual([{ field: 'assignedTo', before: null, after: 3 }]);
    expect(auditChanges({ status: 'SUBMITTED' }, { status: 'ASSIGNED', reason: 'x' })).toEqual([
      { field: 'status', before: 'SUBMITTED', after: 'ASSIGNED' },
      { field: 'reason', after: 'x' },
    ]);
    expect(auditChanges({ lockedUntil: '2026-11-28T07:00:00.000Z' }, {})).toEqual([
      { field: 'lockedUntil', before: '2026-11-28T07:00:00.000Z' },
    ]);
  });

  it('shows what an event recorded when nothing changed (a message keeps the status)', () => {
    expect(auditChanges({ status: 'EXAMINING' }, { status: 'EXAMINING' })).toEqual([
      { field: 'status', after: 'EXAMINING' },
    ]);
    expect(auditChanges(null, { outcome: 'refused', code: 'BAD_REQUEST' })).toEqual([
      { field: 'outcome', after: 'refused' },
      { field: 'code', after: 'BAD_REQUEST' },
    ]);
    expect(auditChanges(null, null)).toEqual([]);
  });

  it('finds the staff an event names: its actor and the officers in its fields, not other numbers', () => {
    expect(
      staffIdsOf({
        actorRef: 'staff:7',
        before: { assignedTo: 2, documentId: 99 },
        after: { assignedTo: 5, officerId: 7, requestId: 4 },
      }).sort(),
    ).toEqual([2, 5, 7]);
    expect(staffIdsOf({ actorRef: 'session:12', before: null, after: { contactOf: 'x' } })).toEqual([]);
  });

  it('has words in en, sc and tc for every action the log records and every lifecycle event', () => {
    const codes = new Set<string>([...AUDIT_ACTIONS, ...CASE_EVENT_TYPES]);
    for (const m of [en, sc, tc]) {
      const events = m.audit.events as Record<string, string>;
      for (const code of codes) expect(events[eventKey(code)], `${code}`).toBeTruthy();
    }
    // Chinese words on a Chinese page.
    for (const m of [sc, tc])
      for (const words of Object.values(m.audit.events)) expect(words).not.toMatch(/[A-Za-z]{3}/);
  });
});
