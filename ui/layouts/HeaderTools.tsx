import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  Button,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  ToggleButton,
} from 'react-aria-components';
import type { Selection } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { HTML_LANG, LANGUAGE_NAMES, LANGUAGES, isLanguage } from '../../machines/rules/language';
import { THEME_MODES, isLoggedIn, type ThemeMode } from '../../machines/rules/session-state';
import { updateSession, useSession } from '../session/store';
import { logout } from '../session/logout';
import { applyHtmlLang } from '../i18n';
import { Icon } from '../components/Icon';

/** Each language's name in itself, so a reader of any language finds theirs. */

function firstKey(keys: Selection): string | undefined {
  if (keys === 'all') return undefined;
  const [first] = keys;
  return typeof first === 'string' ? first : undefined;
}

export function LanguageMenu() {
  const { t, i18n } = useTranslation('common');
  const current = isLanguage(i18n.language) ? i18n.language : 'en';
  const choose = (keys: Selection) => {
    const lang = firstKey(keys);
    if (!isLanguage(lang)) return;
    updateSession((s) => ({ ...s, language: lang }));
    void i18n.changeLanguage(lang);
    applyHtmlLang(lang);
  };
  return (
    <MenuTrigger>
      <Button
        className="tool-button"
        aria-label={t('tools.languageLabel', { language: LANGUAGE_NAMES[current] })}
      >
        <Icon name="globe" />
        <span className="tool-button__text" aria-hidden="true">
          {LANGUAGE_NAMES[current]}
        </span>
      </Button>
      <Popover placement="bottom end" className="popover">
        <Menu
          className="menu"
          aria-label={t('tools.language')}
          selectionMode="single"
          selectedKeys={[current]}
          onSelectionChange={choose}
          disallowEmptySelection
        >
          {LANGUAGES.map((lang) => (
            <MenuItem key={lang} id={lang} className="menu__item" textValue={LANGUAGE_NAMES[lang]}>
              <span lang={HTML_LANG[lang]}>{LANGUAGE_NAMES[lang]}</span>
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

export function ThemeMenu() {
  const { t } = useTranslation('common');
  const mode = useSession((s) => s.theme.mode);
  const choose = (keys: Selection) => {
    const m = firstKey(keys);
    if (!m || !(THEME_MODES as readonly string[]).includes(m)) return;
    updateSession((s) => ({ ...s, theme: { ...s.theme, mode: m as ThemeMode } }));
  };
  return (
    <MenuTrigger>
      <Button className="tool-button" aria-label={t('tools.themeLabel', { mode: t(`tools.modes.${mode}`) })}>
        <Icon name="palette" />
        <span className="tool-button__text" aria-hidden="true">
          {t('tools.theme')}
        </span>
      </Button>
      <Popover placement="bottom end" className="popover">
        <Menu
          className="menu"
          aria-label={t('tools.theme')}
          selectionMode="single"
          selectedKeys={[mode]}
          onSelectionChange={choose}
          disallowEmptySelection
        >
          {THEME_MODES.map((m) => (
            <MenuItem key={m} id={m} className="menu__item">
              {t(`tools.modes.${m}`)}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

export function DarkModeToggle() {
  const { t } = useTranslation('common');
  const dark = useSession((s) => s.theme.dark);
  return (
    <ToggleButton
      className="tool-button"
      isSelected={dark}
      onChange={(on) => updateSession((s) => ({ ...s, theme: { ...s.theme, dark: on } }))}
    >
      <Icon name="moon" />
      <span className="tool-button__text">{t('tools.darkMode')}</span>
    </ToggleButton>
  );
}

const noSubscription = () => () => {};

export function FullScreenToggle() {
  const { t } = useTranslation('common');
  const [full, setFull] = useState(false);
  // Known only in the browser: the prerendered page shows the button (as nearly every browser supports
  // it), and a browser without full screen removes it after hydration.
  const supported = useSyncExternalStore(
    noSubscription,
    () => document.fullscreenEnabled,
    () => true,
  );
  useEffect(() => {
    const sync = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  if (!supported) return null;
  const toggle = (on: boolean) => {
    const done = on ? document.documentElement.requestFullscreen() : document.exitFullscreen();
    done.catch(() => setFull(document.fullscreenElement !== null));
  };
  return (
    <ToggleButton className="tool-button" isSelected={full} onChange={toggle}>
      <Icon name="expand" />
      <span className="tool-button__text">{t('tools.fullScreen')}</span>
    </ToggleButton>
  );
}

/** The logged-in applicant's menu: application number, history, logout (spec §2). */
export function UserMenu() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const loggedIn = useSession(isLoggedIn);
  const applicationNo = useSession((s) => s.applicationNo);
  if (!loggedIn) return null;
  return (
    <MenuTrigger>
      <Button className="tool-button tool-button--user">
        <Icon name="user" />
        <span className="tool-button__text">{t('user.menu', { applicationNo })}</span>
      </Button>
      <Popover placement="bottom end" className="popover">
        <Menu
          className="menu"
          aria-label={t('user.menuLabel')}
          onAction={(key) => {
            if (key === 'logout') void logout(() => void navigate('/'));
          }}
        >
          <MenuSection className="menu__section">
            <Header className="menu__header">{t('user.applicationNo', { applicationNo })}</Header>
            <MenuItem id="history" href="/case-history" className="menu__item">
              {t('user.history')}
            </MenuItem>
            <MenuItem id="logout" className="menu__item">
              {t('user.logout')}
            </MenuItem>
          </MenuSection>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
