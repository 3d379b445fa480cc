import { addDays, addWorkingDays, isIsoDate, isWorkingDay } from '../../rules/working-days';
import type { CrossIssue, FollowUpDefinition } from './types';
import { followUpEntry } from './entries';

/** The first preferred date is this many working days after today, at the earliest. */
export const INSPECTION_MIN_WORKING_DAYS = 3;
/** The last preferred date is at most this many calendar days after today. */
export const INSPECTION_MAX_DAYS = 60;
export const ACCESS_NOTES_MAX = 500;
const PREFERRED = ['preferredDate1', 'preferredDate2', 'preferredDate3'] as const;

const ROLE_OPTIONS = (['applicant', 'contactPerson', 'ap', 'rse'] as const).map((value) => ({
  value,
  labelKey: `followUp.inspection.roles.${value}`,
}));

/**
 * Request for compliance inspection (`/request-for-inspection`, spec §3 "Inspection request"): who asks and
 * in which role, whom the inspector calls, two or three preferred dates on working days (Hong Kong general
 * holidays excluded) and how to get in. The application type and the request date come from the case and
 * the server's clock, not from the form.
 */
export const INSPECTION: FollowUpDefinition = {
  kind: 'followUp',
  ...followUpEntry('requestForInspection'),
  code: 'INS',
  documentType: 'INSPECTION_REQUEST',
  steps: [
    {
      kind: 'fill',
      id: 'fill',
      titleKey: 'followUp.inspection.stepTitle',
      sections: [
        {
          id: 'requester',
          titleKey: 'followUp.inspection.requesterSection',
          fields: [
            {
              id: 'requesterName',
              kind: 'text',
              required: true,
              maxLength: 100,
              labelKey: 'followUp.inspection.requesterName',
            },
            {
              id: 'requesterRole',
              kind: 'radio',
              required: true,
              labelKey: 'followUp.inspection.requesterRole',
              options: ROLE_OPTIONS,
            },
          ],
        },
        {
          id: 'contact',
          titleKey: 'followUp.inspection.contactSection',
          fields: [
            {
              id: 'inspectionContactName',
              kind: 'text',
              required: true,
              maxLength: 100,
              labelKey: 'followUp.inspection.contactName',
              half: true,
            },
            {
              id: 'inspectionContactTelephone',
              kind: 'phone',
              required: true,
              labelKey: 'followUp.inspection.contactTelephone',
              half: true,
            },
          ],
        },
        {
          id: 'dates',
          titleKey: 'followUp.inspection.datesSection',
          introKey: 'followUp.inspection.datesIntro',
          fields: [
            { id: 'preferredDate1', kind: 'date', required: true, labelKey: 'followUp.inspection.date1' },
            { id: 'preferredDate2', kind: 'date', required: true, labelKey: 'followUp.inspection.date2' },
            { id: 'preferredDate3', kind: 'date', labelKey: 'followUp.inspection.date3' },
            {
              id: 'accessNotes',
              kind: 'text',
              multiline: true,
              maxLength: ACCESS_NOTES_MAX,
              labelKey: 'followUp.inspection.accessNotes',
              hint: true,
            },
          ],
        },
      ],
    },
    { kind: 'preview' },
    { kind: 'done' },
  ],
  prefill: (facts) => ({
    requesterName: facts.applicantName ?? '',
    requesterRole: 'applicant',
    inspectionContactName: facts.contactName ?? facts.applicantName ?? '',
    inspectionContactTelephone: facts.contactTelephone ?? '',
  }),
  check: (answers, { today, holidays }) => {
    const earliest = addWorkingDays(today, INSPECTION_MIN_WORKING_DAYS, holidays);
    const latest = addDays(today, INSPECTION_MAX_DAYS);
    const issues: CrossIssue[] = [];
    const seen = new Set<string>();
    for (const field of PREFERRED) {
      const date = answers[field];
      if (!isIsoDate(date)) continue;
      if (!isWorkingDay(date, holidays))
        issues.push({ field, messageKey: 'followUp.inspection.errors.notWorkingDay', params: { date } });
      else if (date < earliest)
        issues.push({ field, messageKey: 'followUp.inspection.errors.tooSoon', params: { date: earliest } });
      else if (date > latest)
        issues.push({ field, messageKey: 'followUp.inspection.errors.tooLate', params: { date: latest } });
      else if (seen.has(date))
        issues.push({ field, messageKey: 'followUp.inspection.errors.sameDate', params: { date } });
      seen.add(date);
    }
    return issues;
  },
};
