import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/**
 * The page's one h1. It names the document (the translated BD key plus the page's name) and, after a
 * navigation inside the portal, takes focus so that screen readers announce the new page.
 */
export function PageHeading({
  children,
  title,
  focusKey,
}: {
  children: string;
  title?: string;
  focusKey?: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  const { t } = useTranslation('common');
  const bd = t('bd');
  const name = title ?? children;
  useEffect(() => {
    document.title = `${name} | ${bd}`;
    // The page is live (a prerendered one hydrated): tests wait for this before they press anything.
    document.documentElement.dataset.ready = 'true';
  }, [name, bd]);
  useEffect(() => {
    // 'default' is the first page of the visit: leave focus where the browser puts it. A screen that
    // changes without a new URL (a flow's confirmation) gives a new focusKey.
    // A fragment that names an element of the page is the browser's to scroll to and leaves focus alone; one
    // that names none (the token of /appointment-accept#<token>) does not stop the heading.
    if ((location.key !== 'default' || focusKey) && !fragmentTarget(location.hash))
      ref.current?.focus({ preventScroll: false });
  }, [location.key, location.hash, focusKey]);
  return (
    <h1 ref={ref} tabIndex={-1} className="page-heading">
      {children}
    </h1>
  );
}

/** The element a URL fragment names, if the page has one. */
function fragmentTarget(hash: string): Element | null {
  if (!hash || hash === '#') return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null;
  }
}
