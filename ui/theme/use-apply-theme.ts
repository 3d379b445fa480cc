import { useEffect } from 'react';
import { useSession } from '../session/store';

/** Mirror the theme, mode and text size of the session onto <html>, where the stylesheet reads them. */
export function useApplyTheme(): void {
  const dark = useSession((s) => s.theme.dark);
  const mode = useSession((s) => s.theme.mode);
  const primary = useSession((s) => s.theme.primary);
  const size = useSession((s) => s.componentSize);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = dark ? 'dark' : 'light';
    root.dataset.mode = mode;
    root.dataset.textSize = size;
    root.style.setProperty('--primary-user', primary);
    root.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark, mode, primary, size]);
}
