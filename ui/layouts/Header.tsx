import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isLoggedIn } from '../../machines/rules/session-state';
import { useSession } from '../session/store';
import { visibleMenu } from './menu-links';
import { MainMenu } from './MainMenu';
import { MobileMenu } from './MobileMenu';
import { DarkModeToggle, FullScreenToggle, LanguageMenu, ThemeMenu, UserMenu } from './HeaderTools';

export function Header({ showMainMenu }: { showMainMenu: boolean }) {
  const { t } = useTranslation('common');
  const loggedIn = useSession(isLoggedIn);
  const groups = visibleMenu(loggedIn);
  return (
    <header className={`site-header ${showMainMenu ? 'site-header--with-menu' : 'site-header--no-menu'}`}>
      <div className="site-header__bar">
        <Link to="/" className="brand">
          <img src="/bd-logo.svg" alt="" width="44" height="44" className="brand__logo" />
          <span className="brand__text">
            <span className="brand__department">{t('bd')}</span>
            <span className="brand__portal">{t('portalName')}</span>
          </span>
        </Link>
        <div className="header-tools" role="group" aria-label={t('tools.label')}>
          <LanguageMenu />
          <ThemeMenu />
          <DarkModeToggle />
          <FullScreenToggle />
          <UserMenu />
        </div>
      </div>
      <MobileMenu groups={groups} />
      {showMainMenu ? <MainMenu groups={groups} /> : null}
    </header>
  );
}
