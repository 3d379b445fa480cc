import type { FollowUpDefinition } from './types';
import { followUpEntry } from './entries';

/** The longest withdrawal reason, in characters. */
export const WITHDRAW_REASON_MAX = 1000;

/**
 * Withdraw application (`/withdraw-application`): the case shown, an optional reason and the confirmation
 * tick the spec requires. No preview: the tick is the confirmation. The case becomes Withdrawn and every
 * other action closes.
 */
export const WITHDRAW: FollowUpDefinition = {
  kind: 'followUp',
  ...followUpEntry('withdrawApplication'),
  code: 'WD',
  documentType: 'WITHDRAWAL',
  steps: [
    {
      kind: 'fill',
      id: 'fill',
      titleKey: 'followUp.withdraw.stepTitle',
      sections: [
        {
          id: 'withdrawal',
          titleKey: 'followUp.withdraw.section',
          fields: [
            {
              id: 'reason',
              kind: 'text',
              multiline: true,
              maxLength: WITHDRAW_REASON_MAX,
              labelKey: 'followUp.withdraw.reason',
              hint: true,
            },
            {
              id: 'confirm',
              kind: 'checkbox',
              required: true,
              labelKey: 'followUp.withdraw.confirm',
              requiredKey: 'followUp.withdraw.confirmRequired',
            },
          ],
        },
      ],
    },
    { kind: 'done' },
  ],
};
