import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { startSession } from '../../session/auth';
import { PageHeading } from '../../components/PageHeading';
import { loginWith, otpActors } from './otp-actors';
import { OtpLoginForm } from './OtpLoginForm';

const machine = loginWith(otpActors);

/** Find my case: application number and contact, a one-time password, then the application history. */
export default function FindMyCasePage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <article className="content-page">
      <PageHeading>{t('findMyCase.title')}</PageHeading>
      <p className="lead">{t('findMyCase.intro')}</p>
      <OtpLoginForm
        machine={machine}
        onDone={(session) => {
          startSession(session);
          void navigate('/case-history');
        }}
      />
    </article>
  );
}
