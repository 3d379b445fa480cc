import { Button, Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon } from '../components/Icon';
import type { MenuGroup } from '../../machines/route-menu';

/** The desktop main menu: one menu button per group, opened by click, Enter, Space or the arrow keys. */
export function MainMenu({ groups }: { groups: MenuGroup[] }) {
  const { t } = useTranslation('common');
  return (
    <nav className="main-menu" aria-label={t('menu.mainLabel')}>
      <ul className="main-menu__list">
        <li>
          <Link className="main-menu__home" to="/">
            {t('pages.home')}
          </Link>
        </li>
        {groups.map((group) => (
          <li key={group.id}>
            <MenuTrigger>
              <Button className="main-menu__button">
                {t(group.labelKey)}
                <Icon name="chevron" className="chevron" />
              </Button>
              <Popover placement="bottom start" className="popover">
                <Menu className="menu" aria-label={t(group.labelKey)}>
                  {group.sections.map((section, i) => (
                    <MenuSection key={section.labelKey ?? `s${i}`} className="menu__section">
                      {section.labelKey ? (
                        <Header className="menu__header">{t(section.labelKey)}</Header>
                      ) : null}
                      {section.links.map((link) => (
                        <MenuItem key={link.to} id={link.to} href={link.to} className="menu__item">
                          {t(link.labelKey)}
                        </MenuItem>
                      ))}
                    </MenuSection>
                  ))}
                </Menu>
              </Popover>
            </MenuTrigger>
          </li>
        ))}
      </ul>
    </nav>
  );
}
