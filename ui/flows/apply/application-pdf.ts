import { useEffect, useState } from 'react';
import { api } from '../../api';
import { draftToken } from './draft-tokens';

export type ApplicationPdf =
  { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; blob: Blob; url: string } | { kind: 'failed' };

type Loaded = { key: string; blob: Blob; url: string } | { key: string; failed: true };

/**
 * The application form PDF of a draft (GET /api/drafts/:no/pdf, in `lang`) with this browser's token for
 * it, as a Blob and an object URL (revoked when the draft or the language changes, or on unmount);
 * `none` without an application number or a token.
 */
export function useApplicationPdf(applicationNo: string, lang: string, enabled = true): ApplicationPdf {
  const token = applicationNo ? draftToken(applicationNo) : undefined;
  const key = enabled && applicationNo && token ? `${applicationNo}|${lang}` : '';
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!key || !token) return;
    let url: string | undefined;
    let cancelled = false;
    api
      .blob(
        `drafts/${encodeURIComponent(applicationNo)}/pdf`,
        { lang },
        { quiet: true, ky: { headers: { Authorization: `Bearer ${token}` } } },
      )
      .then((data) => {
        if (cancelled) return;
        const blob = new Blob([data], { type: 'application/pdf' });
        url = URL.createObjectURL(blob);
        setLoaded({ key, blob, url });
      })
      .catch(() => {
        if (!cancelled) setLoaded({ key, failed: true });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [key, applicationNo, token, lang]);

  if (!key) return { kind: 'none' };
  if (loaded?.key !== key) return { kind: 'loading' };
  return 'url' in loaded ? { kind: 'ready', blob: loaded.blob, url: loaded.url } : { kind: 'failed' };
}
