import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { followUpForCase } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { PageHeading } from '../../components/PageHeading';
import { UpdateSuccess, type UpdateDone } from './UpdateChanges';
import { UploadSuccess } from './UploadSuccess';

/**
 * The last step on its own route (Update Success): what step 1 sent here. Opened without it (a bookmark,
 * a link, no flow done in this tab), nothing was done: the form's first step shows, where the flow is
 * (docs/flows/case-action.md, "The last step opened on its own").
 */
export function CaseActionDone({ definition }: { definition: FollowUpDefinition }) {
  const { t } = useTranslation(['case', 'flows']);
  const { state } = useLocation() as { state: { done?: UpdateDone } | null };
  const done = state?.done ?? null;
  if (!done) return <Navigate to={definition.route} replace />;
  const concrete = (done && followUpForCase(definition, done.formCode)) ?? definition;
  const formTitle = t(`flows:forms.${definition.key}.title`);
  // An update form ends on Update Success; Submit Supporting Document on Upload Success.
  const title = t(definition.versioned ? 'case:update.successTitle' : 'case:upload.successTitle');
  return (
    <article className="content-page flow-step">
      <p className="flow-step__form">{formTitle}</p>
      <PageHeading title={`${title} – ${formTitle}`} focusKey="done">
        {title}
      </PageHeading>
      {definition.versioned ? (
        <UpdateSuccess definition={concrete} done={done} />
      ) : (
        <UploadSuccess done={done} />
      )}
    </article>
  );
}
