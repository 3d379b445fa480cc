import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { formByKey } from '../../../machines/forms';
import { NON_LOCAL_TITLE } from '../../../machines/routes';
import { showToast } from '../../feedback/stores';
import { PageHeading } from '../../components/PageHeading';
import { OtpLoginForm } from '../login/OtpLoginForm';
import { loginWith, otpActorsFor } from '../login/otp-actors';
import { storeDraftToken } from './draft-tokens';
import { fetchDraft, openDraft } from './tab-draft';
import { stepRoute } from '../../../machines/flows/apply/steps';

/** The one-time code login machine, over the drafts' resume endpoints (the retrieval code is the number). */
const machine = loginWith(otpActorsFor('drafts/resume'));

interface Resumed {
  token: string;
  applicationNo: string;
  formKey: string;
}

/**
 * Continue a saved application: the retrieval code (the application number) and a one-time code sent
 * to the contact in the draft; then the wizard opens on the step where the applicant left off, with
 * every answer in place.
 */
export default function ResumePage() {
  const { t } = useTranslation(['wizard', 'auth', 'flows']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The route's own title (machines/routes.ts titleKeyFor): the heading, the tab and the document title agree.
  const title =
    params.get('title') === NON_LOCAL_TITLE
      ? t('flows:forms.enterApplicationNumberNonLocal.title')
      : t('flows:forms.enterApplicationNumber.title');

  const open = async (resumed: Resumed) => {
    storeDraftToken(resumed.applicationNo, resumed.token);
    const definition = formByKey(resumed.formKey);
    if (!definition) return;
    // The path a reload of the tab takes too (tab-draft.ts): the draft on the step it was left at.
    const draft = await fetchDraft(resumed.applicationNo, resumed.token);
    const actor = openDraft(definition, { ...draft, step: draft.step ?? 1 });
    showToast('success', t('resume.loaded'));
    void navigate(stepRoute(definition, actor.getSnapshot().context.stepIndex));
  };

  return (
    <article className="content-page">
      <PageHeading>{title}</PageHeading>
      <p className="lead">{t('resume.intro')}</p>
      <OtpLoginForm
        machine={machine}
        applicationNoLabel={t('resume.applicationNo')}
        onDone={(session) => void open(session as unknown as Resumed).catch(() => undefined)}
      />
    </article>
  );
}
