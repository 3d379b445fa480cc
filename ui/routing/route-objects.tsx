import { lazy, Suspense } from 'react';
import { redirect, type RouteObject } from 'react-router-dom';
import { guardRedirect } from '../../machines/routes';
import { Root } from '../layouts/Root';
import { BareLayout } from '../layouts/BareLayout';
import { PageFor } from '../pages/registry';
import { Spinner } from '../components/Spinner';
import type { Layout, RouteDef } from '../../machines/route-types';

// The header, menus, tabs and footer load beside the first page, not before it: the first script stays small.
const AppLayout = lazy(() => import('../layouts/AppLayout'));

export interface RouteHandle {
  route: RouteDef;
}

export interface RoutingDeps {
  /** Whether a session token is stored; read at navigation time. */
  hasToken: () => boolean;
}

function toRouteObject(route: RouteDef, deps: RoutingDeps): RouteObject {
  return {
    path: route.path,
    handle: { route } satisfies RouteHandle,
    // The guard of spec §2 runs as a loader, before anything of the page renders.
    loader: () => {
      const to = guardRedirect(route, deps.hasToken());
      return to ? redirect(to) : null;
    },
    element: <PageFor route={route} />,
  };
}

const layoutElement: Record<Layout, React.ReactElement> = {
  menu: (
    <Suspense fallback={<Spinner />}>
      <AppLayout layout="menu" />
    </Suspense>
  ),
  noMenu: (
    <Suspense fallback={<Spinner />}>
      <AppLayout layout="noMenu" />
    </Suspense>
  ),
  none: <BareLayout />,
};

/** React Router route objects for a route table: one parent per layout, unknown paths redirect to `/`. */
export function buildRouteObjects(routes: readonly RouteDef[], deps: RoutingDeps): RouteObject[] {
  const layouts: Layout[] = ['menu', 'noMenu', 'none'];
  return [
    {
      element: <Root />,
      hydrateFallbackElement: null,
      children: [
        ...layouts.map((layout): RouteObject => ({
          element: layoutElement[layout],
          children: routes.filter((r) => r.layout === layout).map((r) => toRouteObject(r, deps)),
        })),
        { path: '*', loader: () => redirect('/') },
      ],
    },
  ];
}
