import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CaseSummary as Summary } from '../../../machines/flows/case-action-types';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { CaseSummary } from './CaseSummary';

/**
 * A follow-up that the case does not allow now: why (its status, or a form for another kind of
 * application), what comes next, and the way on (docs/flows/case-action.md).
 */
export function CaseNotAllowed({
  summary,
  formKey,
  formTitle,
  otherKind,
  otherForm,
  elsewhere,
}: {
  summary: Summary;
  formKey: string;
  formTitle: string;
  otherKind: boolean;
  otherForm: FollowUpDefinition | undefined;
  elsewhere: string | null;
}) {
  const { t } = useTranslation(['case', 'flows', 'auth']);
  return (
    <>
      <div className="notice notice--info" role="status">
        {otherKind ? (
          // The form is for another kind of application: the case's type, not its status, is why.
          <>
            <p>
              {t('case:update.otherKind', {
                applicationNo: summary.applicationNo,
                type: t(`flows:applicationTypes.${summary.applicationType}`, {
                  defaultValue: summary.formCode,
                }),
                form: formTitle,
              })}
            </p>
            <p>
              {otherForm
                ? t('case:update.otherForm', { other: t(`flows:forms.${otherForm.key}.title`) })
                : t('case:update.noOtherForm')}
            </p>
          </>
        ) : (
          <>
            <p>
              {t(`case:notAllowed.${formKey}`, {
                applicationNo: summary.applicationNo,
                status: t(`auth:history.statuses.${summary.status}`, {
                  defaultValue: summary.status,
                }),
              })}
            </p>
            <p>{t(`case:status.${summary.status}.next`, { defaultValue: '' })}</p>
          </>
        )}
      </div>
      <CaseSummary summary={summary} />
      <p className="form__actions">
        {elsewhere ? (
          <Link className="button button--primary" to={elsewhere}>
            {t('case:update.elsewhere')}
          </Link>
        ) : null}
        <Link className={elsewhere ? 'button' : 'button button--primary'} to="/case-history">
          {t('case:toCase')}
        </Link>
      </p>
    </>
  );
}
