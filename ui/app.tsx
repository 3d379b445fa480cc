import './zod-setup';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { ROUTES } from '../machines/routes';
import { detectLanguage } from '../machines/rules/language';
import { buildRouteObjects } from './routing/route-objects';
import { CONSOLE_ROUTES } from './console/routes';
import { getSession } from './session/store';
import { initI18n } from './i18n';
import { startInspectorIfAsked } from './flows/inspector';

type Router = ReturnType<typeof createBrowserRouter>;

/** Resolves once the router has run the first navigation's loaders (the guards), as the server did. */
function initialized(router: Router): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/**
 * The portal: language first (stored choice, else the browser), then the router over the route table.
 * A page prerendered in that same language is hydrated; otherwise (another language was chosen, or the
 * page is not prerendered) the app renders into the container, replacing what the HTML showed.
 */
export async function startPortal(container: HTMLElement, prerendered: string | undefined): Promise<void> {
  const session = getSession();
  const language = detectLanguage(session.language, navigator.languages);
  await Promise.all([initI18n(language), startInspectorIfAsked()]);
  const router = createBrowserRouter([
    // The case officer console (docs/decisions/022-case-officer-console.md): its own routes, outside the public route table.
    ...CONSOLE_ROUTES,
    ...buildRouteObjects(ROUTES, { hasToken: () => getSession().token !== '' }),
  ]);
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  if (prerendered === language) {
    await initialized(router);
    // At transition priority the hydration yields to the browser between pieces of work, so it does not
    // block the main thread in one long task (the page is already on screen).
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  // Replaces what the HTML showed (the spinner, or a page prerendered in another language).
  createRoot(container).render(app);
}
