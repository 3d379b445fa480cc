/** The shape of the content pages in i18n `pages` and `entry` (the same in every language). */
export interface ContentLink {
  label: string;
  to: string;
}
export interface ContentSection {
  heading: string;
  paragraphs?: string[];
  list?: string[];
  steps?: string[];
  faq?: { q: string; a: string }[];
  links?: ContentLink[];
}
export interface ContentPage {
  title: string;
  intro: string;
  sections: ContentSection[];
}

export function isContentPage(v: unknown): v is ContentPage {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Partial<ContentPage>;
  return typeof p.title === 'string' && typeof p.intro === 'string' && Array.isArray(p.sections);
}
