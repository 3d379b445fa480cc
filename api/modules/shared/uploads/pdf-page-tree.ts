import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject, PDFRef } from 'pdf-lib';
import type { PdfObjects } from './pdf-objects';

/**
 * The pages of a file, read from its page tree with a cap (docs/decisions/031-pdf-active-content.md): the
 * tree is walked in order, a kid listed twice is two pages (as readers show it), and the walk stops at
 * the first page past `maxPages`, so a 30,000-page tree of repeated references costs 501 steps. A tree that
 * loops back on itself, or a catalog without pages, is damaged. /MediaBox, /CropBox and /Rotate are
 * inherited down the tree; /UserUnit belongs to the page.
 */

/** A page's geometry as written: its boxes (arrays, read by the caller), rotation and unit. */
export interface PageEntry {
  mediaBox?: PDFObject;
  cropBox?: PDFObject;
  rotate?: PDFObject;
  userUnit?: PDFObject;
}

export type PageTree = { ok: true; pages: PageEntry[] } | { ok: false; reason: 'corrupt' | 'too-many-pages' };

/** The default of the page cap (env PDF_CHECK_MAX_PAGES). */
export const DEFAULT_MAX_PAGES = 500;

interface Inherited {
  mediaBox?: PDFObject;
  cropBox?: PDFObject;
  rotate?: PDFObject;
}

interface Step {
  node: PDFObject | undefined;
  inherited: Inherited;
  /** The page tree nodes above this one (a kid that is one of them makes a loop). */
  ancestors: ReadonlySet<PDFDict>;
}

const key = (name: string) => PDFName.of(name);

export function readPageTree(objects: PdfObjects, maxPages = DEFAULT_MAX_PAGES): PageTree {
  const { context } = objects;
  const resolve = (value: PDFObject | undefined): PDFObject | undefined =>
    value instanceof PDFRef ? context.lookup(value) : value;
  const catalog = resolve(objects.root);
  if (!(catalog instanceof PDFDict)) return { ok: false, reason: 'corrupt' };
  const top = resolve(catalog.get(key('Pages')));
  if (!(top instanceof PDFDict)) return { ok: false, reason: 'corrupt' };
  // Readers take the page count from the top node's /Count.
  const count = resolve(top.get(key('Count')));
  if (count instanceof PDFNumber && count.asNumber() > maxPages)
    return { ok: false, reason: 'too-many-pages' };

  const pages: PageEntry[] = [];
  // Each page costs one step, each node above pages one more; a tree of empty nodes stops here too.
  let budget = maxPages * 2 + 1000;
  const stack: Step[] = [{ node: top, inherited: {}, ancestors: new Set() }];
  while (stack.length > 0) {
    const { node, inherited, ancestors } = stack.pop()!;
    budget -= 1;
    if (budget < 0) return { ok: false, reason: 'too-many-pages' };
    if (!(node instanceof PDFDict) || ancestors.has(node)) return { ok: false, reason: 'corrupt' };
    const own: Inherited = {
      mediaBox: node.get(key('MediaBox')) ?? inherited.mediaBox,
      cropBox: node.get(key('CropBox')) ?? inherited.cropBox,
      rotate: node.get(key('Rotate')) ?? inherited.rotate,
    };
    const kids = resolve(node.get(key('Kids')));
    if (kids instanceof PDFArray) {
      const above = new Set(ancestors).add(node);
      const items = kids.asArray();
      for (let i = items.length - 1; i >= 0; i--) {
        stack.push({ node: resolve(items[i]), inherited: own, ancestors: above });
      }
      continue;
    }
    pages.push({ ...own, userUnit: node.get(key('UserUnit')) });
    if (pages.length > maxPages) return { ok: false, reason: 'too-many-pages' };
  }
  return pages.length === 0 ? { ok: false, reason: 'corrupt' } : { ok: true, pages };
}
