import './zod-setup';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { ROUTES } from '../machines/routes';
import { detectLanguage } from '../machines/rules/language';
import { buildRouteObjects } from './routing/route-objects';
import { getSession } from './session/store';
import { initI18n } from './i18n';
import { startInspectorIfAsked } from './flows/inspector';

/** The portal: language first (stored choice, else the browser), then the router over the route table. */
export async function createPortal(): Promise<React.ReactElement> {
  const session = getSession();
  await Promise.all([
    initI18n(detectLanguage(session.language, navigator.languages)),
    startInspectorIfAsked(),
  ]);
  const router = createBrowserRouter(
    buildRouteObjects(ROUTES, { hasToken: () => getSession().token !== '' }),
  );
  return <RouterProvider router={router} />;
}
