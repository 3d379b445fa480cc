import { useId, useState } from 'react';
import { Button, Disclosure, DisclosureGroup, DisclosurePanel, Heading } from 'react-aria-components';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import type { MenuGroup } from '../../machines/route-menu';

/** The mobile menu: a toggle button and an accordion of the four groups. Closes after navigation. */
export function MobileMenu({ groups }: { groups: MenuGroup[] }) {
  const { t } = useTranslation('common');
  const location = useLocation();
  const here = location.pathname + location.search;
  // The menu is open on the page where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === here;
  const panelId = useId();

  return (
    <div className="mobile-menu">
      <Button
        className="mobile-menu__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onPress={() => setOpenOn(open ? null : here)}
      >
        <Icon name={open ? 'close' : 'menu'} />
        {open ? t('menu.close') : t('menu.open')}
      </Button>
      <nav id={panelId} className="mobile-menu__panel" aria-label={t('menu.mainLabel')} hidden={!open}>
        <Link className="mobile-menu__home" to="/">
          {t('pages.home')}
        </Link>
        <DisclosureGroup className="accordion">
          {groups.map((group) => (
            <Disclosure key={group.id} id={group.id} className="accordion__item">
              <Heading level={2} className="accordion__heading">
                <Button slot="trigger" className="accordion__trigger">
                  <Icon name="chevron" className="chevron" />
                  {t(group.labelKey)}
                </Button>
              </Heading>
              <DisclosurePanel className="accordion__panel">
                {group.sections.map((section, i) => (
                  <div key={section.labelKey ?? `s${i}`} className="accordion__section">
                    {section.labelKey ? (
                      <p className="accordion__section-title">{t(section.labelKey)}</p>
                    ) : null}
                    <ul>
                      {section.links.map((link) => (
                        <li key={link.to}>
                          <Link to={link.to}>{t(link.labelKey)}</Link>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </DisclosurePanel>
            </Disclosure>
          ))}
        </DisclosureGroup>
      </nav>
    </div>
  );
}
