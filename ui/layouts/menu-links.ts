import { MENU_GROUPS, type MenuGroup, type MenuLink } from '../../machines/route-menu';

/** The menu groups as shown to this visitor: links for logged-in applicants only are dropped otherwise. */
export function visibleMenu(loggedIn: boolean): MenuGroup[] {
  const keep = (l: MenuLink) => (loggedIn ? !l.loggedOutOnly : !l.loggedInOnly);
  return MENU_GROUPS.map((g) => ({
    ...g,
    sections: g.sections.map((s) => ({ ...s, links: s.links.filter(keep) })),
  }));
}
