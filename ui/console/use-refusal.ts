import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleActionFailure } from '../../machines/flows/console-action.machine';
import { ConsoleApiError } from './api';

/**
 * The console action's refusal as the error its form shows: one error object per refusal, so the summary
 * takes focus when a refusal arrives, not on each key typed after it (docs/forms.md, "Errors and focus").
 * A refusal without a message is a network failure.
 */
export function useRefusal(failure: ConsoleActionFailure | null): ConsoleApiError | null {
  const { t } = useTranslation('console');
  return useMemo(
    () =>
      failure
        ? new ConsoleApiError(
            failure.status,
            failure.code,
            failure.message || t('errors.network'),
            failure.fields,
          )
        : null,
    [failure, t],
  );
}
