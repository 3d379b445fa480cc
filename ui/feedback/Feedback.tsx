import { useEffect, useState } from 'react';
import NProgress from 'nprogress';
import { useTranslation } from 'react-i18next';
import { dismissToast, useLoadingCount, useToasts } from './stores';
import { Spinner } from '../components/Spinner';

// Top progress bar (spec §9): minimum 0.3, speed 500 ms, trickle 200 ms. Decorative: the overlay speaks.
NProgress.configure({
  minimum: 0.3,
  speed: 500,
  trickleSpeed: 200,
  showSpinner: false,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
});

/** Overlay shown only after this much waiting, so quick requests do not flash. */
const OVERLAY_DELAY_MS = 300;

/** The global loading overlay and the top progress bar, driven by requests in flight. */
export function LoadingFeedback() {
  const count = useLoadingCount();
  const [overlay, setOverlay] = useState(false);
  useEffect(() => {
    if (count === 0) {
      NProgress.done();
      const t = setTimeout(() => setOverlay(false), 0);
      return () => clearTimeout(t);
    }
    NProgress.start();
    const t = setTimeout(() => setOverlay(true), OVERLAY_DELAY_MS);
    return () => clearTimeout(t);
  }, [count]);
  if (!overlay || count === 0) return null;
  return (
    <div className="loading-overlay">
      <Spinner />
    </div>
  );
}

/** Toasts at the top centre (spec §9: 3 s, 8 px from the top); errors are alerts, others status. */
export function Toaster() {
  const toasts = useToasts();
  const { t } = useTranslation('common');
  return (
    <section className="toaster" aria-label={t('toasts.label')}>
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          <span className="toast__message">{toast.message}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={t('toasts.dismiss')}
            onClick={() => dismissToast(toast.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </section>
  );
}
