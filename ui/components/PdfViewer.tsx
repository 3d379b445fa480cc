import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A PDF shown in the page: pdf.js (pdfjs-dist, loaded only here) draws every page to a canvas, its
 * worker a script of the portal's own origin, so the CSP needs no `object-src`, no frame and no eval
 * (docs/decisions/004-csp.md). Each page is an image named "Page n of N"; the same content is on the
 * preview as text, and the PDF itself can be downloaded beside the viewer.
 */
export function PdfViewer({ data, label }: { data: Blob; label: string }) {
  const { t } = useTranslation('common');
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ data: Blob; pages: number } | { data: Blob; failed: true } | null>(
    null,
  );

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    void (async () => {
      try {
        const [pdfjs, worker] = await Promise.all([
          import('pdfjs-dist'),
          import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
        ]);
        pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
        const task = pdfjs.getDocument({
          data: new Uint8Array(await data.arrayBuffer()),
          isEvalSupported: false,
          enableXfa: false,
        });
        destroy = () => task.destroy();
        const doc = await task.promise;
        if (cancelled) return;
        box.replaceChildren();
        const width = Math.max(box.clientWidth, 320);
        const ratio = window.devicePixelRatio || 1;
        for (let n = 1; n <= doc.numPages && !cancelled; n++) {
          const page = await doc.getPage(n);
          const base = page.getViewport({ scale: 1 });
          const viewport = page.getViewport({ scale: (width / base.width) * ratio });
          const canvas = document.createElement('canvas');
          canvas.className = 'pdf-viewer__page';
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', t('pdf.page', { n, total: doc.numPages }));
          box.append(canvas);
          await page.render({ canvas, viewport }).promise;
        }
        if (!cancelled) setState({ data, pages: doc.numPages });
      } catch {
        if (!cancelled) setState({ data, failed: true });
      }
    })();
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [data, t]);

  const current = state?.data === data ? state : null;
  return (
    <section className="pdf-viewer" aria-label={label} aria-busy={current === null}>
      {current === null ? <p role="status">{t('pdf.rendering')}</p> : null}
      {current && 'failed' in current ? <p role="alert">{t('pdf.renderFailed')}</p> : null}
      <div ref={host} className="pdf-viewer__pages" />
    </section>
  );
}
