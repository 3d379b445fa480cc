import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isLoggedIn } from '../../machines/rules/session-state';
import { useSession } from '../session/store';
import { Spinner } from '../components/Spinner';
import { Header } from './Header';
import { Footer } from './Footer';
import { TabStrip } from './TabStrip';
import type { Layout } from '../../machines/route-types';

// The idle session (its machine, xstate and the warning dialog) matters only while logged in.
const IdleSession = lazy(() => import('../session/IdleSession').then((m) => ({ default: m.IdleSession })));

/** The two page layouts: with the desktop main menu (`menu`) and without it (`noMenu`). */
export default function AppLayout({ layout }: { layout: Exclude<Layout, 'none'> }) {
  const { t } = useTranslation('common');
  const loggedIn = useSession(isLoggedIn);
  return (
    <div className={`app app--${layout}`}>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      {/* The desktop main menu is hidden when logged in or when the page asks for no menu (spec §2). */}
      <Header showMainMenu={layout === 'menu' && !loggedIn} />
      <Suspense fallback={null}>
        <TabStrip />
      </Suspense>
      <main id="main" tabIndex={-1} className="main">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {loggedIn ? (
        <Suspense fallback={null}>
          <IdleSession />
        </Suspense>
      ) : null}
    </div>
  );
}
