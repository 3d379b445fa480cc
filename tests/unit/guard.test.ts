import { describe, expect, it } from 'vitest';
import { createStaticHandler } from 'react-router-dom';
import { guardRedirect, ROUTES } from '../../machines/routes';
import { buildRouteObjects } from '../../ui/routing/route-objects';
import type { RouteDef } from '../../machines/route-types';

/** A route that needs authentication; the spec marks none, so the guard is proven on this one. */
const PROBE: RouteDef = {
  path: '/probe-private',
  layout: 'noMenu',
  page: 'about',
  titleKey: 'pages.about',
  group: 'hidden',
  requiresAuth: true,
};

async function resolve(path: string, token: string): Promise<{ status: number; location: string | null }> {
  const handler = createStaticHandler(
    buildRouteObjects([...ROUTES, PROBE], { hasToken: () => token !== '' }),
  );
  const result = await handler.query(new Request(`http://portal.test${path}`));
  if (result instanceof Response) return { status: result.status, location: result.headers.get('Location') };
  return { status: result.statusCode, location: null };
}

describe('route guard', () => {
  it('redirects a route that needs authentication to / when there is no token', async () => {
    expect(await resolve('/probe-private', '')).toEqual({ status: 302, location: '/' });
  });

  it('lets the same route through with a token', async () => {
    expect(await resolve('/probe-private', 'token')).toEqual({ status: 200, location: null });
  });

  it('lets every route of the table through without a token, as none needs authentication', async () => {
    for (const route of ROUTES)
      expect(await resolve(route.path, ''), route.path).toEqual({ status: 200, location: null });
  });

  it('redirects an unknown path to /', async () => {
    expect(await resolve('/no/such/page', '')).toEqual({ status: 302, location: '/' });
  });

  it('is the pure rule the loaders use', () => {
    expect(guardRedirect({ requiresAuth: true }, false)).toBe('/');
    expect(guardRedirect({ requiresAuth: true }, true)).toBeNull();
    expect(guardRedirect({}, false)).toBeNull();
  });
});
