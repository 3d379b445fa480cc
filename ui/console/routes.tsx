import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';

const ConsoleLayout = lazy(() => import('./ConsoleLayout'));
const SignInPage = lazy(() => import('./SignInPage'));
const QueuePage = lazy(() => import('./QueuePage'));
const CasePage = lazy(() => import('./CasePage'));
const AuditPage = lazy(() => import('./AuditPage'));
const AdminPage = lazy(() => import('./AdminPage'));
const HoldersPage = lazy(() => import('./HoldersPage'));
const PerformancePage = lazy(() => import('./PerformancePage'));

/**
 * The case officer console (docs/console.md): its own routes under /console, outside the
 * public route table, menus and sitemap, each page loaded only when a member of staff opens it.
 */
export const CONSOLE_ROUTES: RouteObject[] = [
  {
    path: '/console',
    element: <ConsoleLayout />,
    hydrateFallbackElement: null,
    children: [
      { index: true, element: <QueuePage /> },
      { path: 'sign-in', element: <SignInPage /> },
      { path: 'cases/:applicationNo', element: <CasePage /> },
      { path: 'audit', element: <AuditPage /> },
      { path: 'admin', element: <AdminPage /> },
      { path: 'holders', element: <HoldersPage /> },
      { path: 'performance', element: <PerformancePage /> },
    ],
  },
];
