import { isIsoDate } from '../../rules/working-days';
import { registrationProblem } from '../../rules/registration';
import type { CrossIssue, FollowUpDefinition } from './types';
import { followUpEntry } from './entries';

const IDENTITY_OPTIONS = (['ap', 'rse'] as const).map((value) => ({
  value,
  labelKey: `followUp.appointment.identities.${value}`,
}));

/**
 * Appointment of AP and RSE (`/form-appointment-step1`, spec §3 "AP/RSE details"): the applicant names the
 * Authorized Person or Registered Structural Engineer they appoint, with the register's number and its
 * expiry date; preview; submit. The appointee is then invited (email and SMS) and the appointment is
 * active only once they accept (api/modules/appointments/appointments.service.ts, docs/decisions/020-appointments.md). Both an
 * AP and an RSE are appointed by sending the form once for each.
 */
export const APPOINTMENT: FollowUpDefinition = {
  kind: 'followUp',
  ...followUpEntry('appointment'),
  code: 'APT',
  documentType: 'APPOINTMENT',
  steps: [
    {
      kind: 'fill',
      id: 'fill',
      titleKey: 'followUp.appointment.stepTitle',
      sections: [
        {
          id: 'appointee',
          titleKey: 'followUp.appointment.section',
          fields: [
            {
              id: 'identity',
              kind: 'radio',
              required: true,
              labelKey: 'followUp.appointment.identity',
              options: IDENTITY_OPTIONS,
            },
            {
              id: 'nameEn',
              kind: 'text',
              required: true,
              maxLength: 100,
              script: 'en',
              labelKey: 'followUp.appointment.nameEn',
              half: true,
            },
            {
              id: 'nameZh',
              kind: 'text',
              maxLength: 50,
              script: 'zh',
              labelKey: 'followUp.appointment.nameZh',
              half: true,
            },
            {
              id: 'registrationNumber',
              kind: 'text',
              required: true,
              maxLength: 20,
              labelKey: 'followUp.appointment.registrationNumber',
              hint: true,
              half: true,
            },
            {
              id: 'expiryDate',
              kind: 'date',
              required: true,
              labelKey: 'followUp.appointment.expiryDate',
              half: true,
            },
            {
              id: 'email',
              kind: 'email',
              required: true,
              labelKey: 'followUp.appointment.email',
              half: true,
            },
            {
              id: 'mobile',
              kind: 'mobile',
              required: true,
              labelKey: 'followUp.appointment.mobile',
              half: true,
            },
          ],
        },
      ],
    },
    { kind: 'preview' },
    { kind: 'done' },
  ],
  doneLink: { to: '/form-appointment-step2', labelKey: 'appointment:manage.title' },
  check: (answers, { today }) => {
    const identity = answers.identity;
    const number = answers.registrationNumber;
    const expiry = answers.expiryDate;
    if ((identity !== 'ap' && identity !== 'rse') || typeof number !== 'string' || !number.trim()) return [];
    const problem = registrationProblem(number, identity, isIsoDate(expiry) ? expiry : '9999-12-31', today);
    const issues: CrossIssue[] = [];
    if (problem === 'format')
      issues.push({
        field: 'registrationNumber',
        messageKey: `followUp.appointment.errors.format.${identity}`,
      });
    else if (problem === 'identityMismatch')
      issues.push({
        field: 'registrationNumber',
        messageKey: `followUp.appointment.errors.identityMismatch.${identity}`,
      });
    else if (problem === 'expired')
      issues.push({
        field: 'expiryDate',
        messageKey: 'followUp.appointment.errors.expired',
        params: { today },
      });
    return issues;
  },
};
