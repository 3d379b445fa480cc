import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loginOtpMachine, type LoginSession } from '../../../machines/flows/login-otp.machine';
import { updateSession } from '../../session/store';
import { writeActivity } from '../../session/activity';
import { PageHeading } from '../../components/PageHeading';
import { otpActors } from './otp-actors';
import { OtpLoginForm } from './OtpLoginForm';

const machine = loginOtpMachine.provide({ actors: otpActors });

/** Start a session in the browser: the token plus the login flag (spec §4), and the activity clock. */
function startSession(session: LoginSession): void {
  updateSession((s) => ({
    ...s,
    isLogin: true,
    token: session.token,
    applicationNo: session.applicationNo,
    role: session.role,
    userId: session.userId,
  }));
  writeActivity({ time: Date.now(), isLogin: true });
}

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
