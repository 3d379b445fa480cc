import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '../components/Spinner';

/** The layout-free pages (/health, /iamsmart, /pdf): no header, menu or footer. */
export function BareLayout() {
  return (
    <main id="main" className="bare">
      <Suspense fallback={<Spinner />}>
        <Outlet />
      </Suspense>
    </main>
  );
}
