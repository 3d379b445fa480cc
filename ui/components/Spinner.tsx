import { useTranslation } from 'react-i18next';

/** The large centred spinner shown while a page loads; announced to screen readers once. */
export function Spinner({ label }: { label?: string }) {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  // Before any message file has arrived, say it in the three languages at once.
  const text = label ?? (ready ? t('loading') : 'Loading… 載入中… 载入中…');
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__wheel" aria-hidden="true" />
      <span className="visually-hidden">{text}</span>
    </div>
  );
}
