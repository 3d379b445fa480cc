import { PDFArray, PDFDict, PDFName, type PDFObject, PDFRef, PDFStream } from 'pdf-lib';
import { type PdfObjects, refKey } from './pdf-objects';

/**
 * What an officer's PDF reader could run, open or send when it shows an uploaded file: the check refuses it
 * (docs/decisions/031-pdf-active-content.md). It walks every definition of every object (duplicates and
 * object streams' objects included) and every trailer, each dictionary and array in them, and judges a
 * value given by reference by every definition of what it refers to: `/S 7 0 R` where object 7 is
 * `/Launch` is a Launch action.
 *
 * - `active-content`: JavaScript (`/JS`, `/JavaScript`, anywhere: names tree, actions, form fields),
 *   additional actions (`/AA`: on open, on page view, in form fields), actions that start a program,
 *   open another file or send or import data (Launch, GoToR, GoToE, SubmitForm, ImportData, RichMediaExecute),
 *   rich media and 3D annotations (they carry players and scripts);
 * - `embedded-file`: attached files (`/EmbeddedFiles` names tree, a file specification's `/EF`, an
 *   `/EmbeddedFile` stream, a FileAttachment annotation);
 * - `xfa`: an XFA form (`/XFA` in the AcroForm), with script or not: readers render it from its own XML.
 */
export type ActiveContentReason = 'active-content' | 'embedded-file' | 'xfa';

const KEYS: Record<string, ActiveContentReason> = {
  JS: 'active-content',
  JavaScript: 'active-content',
  AA: 'active-content',
  EmbeddedFiles: 'embedded-file',
  EF: 'embedded-file',
  XFA: 'xfa',
};

/** Action types (`/S`) that run code or another program, open another file, or send or import data. */
const ACTIONS = new Set([
  'JavaScript',
  'Launch',
  'GoToR',
  'GoToE',
  'SubmitForm',
  'ImportData',
  'RichMediaExecute',
]);

/** Annotation subtypes (`/Subtype`) refused, with the reason. */
const SUBTYPES: Record<string, ActiveContentReason> = {
  FileAttachment: 'embedded-file',
  RichMedia: 'active-content',
  '3D': 'active-content',
};

/** Object types (`/Type`) refused, with the reason. */
const TYPES: Record<string, ActiveContentReason> = { EmbeddedFile: 'embedded-file' };

/** Steps of the walk (dictionary entries and array items) before the file is too complex to judge. */
export const MAX_WALK_STEPS = 20_000_000;

export class WalkTooLongError extends Error {
  constructor() {
    super('PDF object graph too large to walk');
    this.name = 'WalkTooLongError';
  }
}

/** A name's text, `#xx` escapes decoded (only then: decoding every name costs a third of the walk). */
function nameText(name: PDFName): string {
  const encoded = name.asString();
  return encoded.includes('#') ? name.decodeText() : encoded.slice(1);
}

/** References resolved through at most this many links (`7 0 R` whose object is `8 0 R` ...). */
const MAX_LINKS = 8;

/**
 * The names a value can stand for: itself if a name, or the name of each definition of the object it
 * refers to (through a few links of references). Decoded, so `/Java#53cript` is JavaScript.
 */
function namesOf(value: PDFObject, objects: PdfObjects): string[] {
  const names: string[] = [];
  let frontier: PDFObject[] = [value];
  const seen = new Set<string>();
  for (let link = 0; link <= MAX_LINKS && frontier.length > 0; link++) {
    const next: PDFObject[] = [];
    for (const item of frontier) {
      if (item instanceof PDFName) names.push(nameText(item));
      else if (item instanceof PDFRef && !seen.has(refKey(item))) {
        seen.add(refKey(item));
        next.push(...(objects.definitions.get(refKey(item)) ?? []));
      }
    }
    frontier = next;
  }
  return names;
}

/** The reason a dictionary is refused, or undefined. */
function judge(dict: PDFDict, objects: PdfObjects): ActiveContentReason | undefined {
  for (const [key, value] of dict.entries()) {
    const name = nameText(key);
    const byKey = KEYS[name];
    if (byKey) return byKey;
    if (name === 'S' && namesOf(value, objects).some((n) => ACTIONS.has(n))) return 'active-content';
    if (name === 'Subtype') {
      const found = namesOf(value, objects).find((n) => SUBTYPES[n]);
      if (found) return SUBTYPES[found];
    }
    if (name === 'Type') {
      const found = namesOf(value, objects).find((n) => TYPES[n]);
      if (found) return TYPES[found];
    }
  }
  return undefined;
}

/**
 * The first reason to refuse the file found (see the file's comment), or undefined when nothing in it can
 * run, open or send anything. Throws {@link WalkTooLongError} past {@link MAX_WALK_STEPS}.
 */
export function findActiveContent(objects: PdfObjects): ActiveContentReason | undefined {
  const stack: PDFObject[] = [...objects.trailers];
  for (const list of objects.definitions.values()) stack.push(...list);
  if (objects.root) stack.push(objects.root);
  let steps = 0;
  while (stack.length > 0) {
    const object = stack.pop();
    steps += 1;
    if (steps > MAX_WALK_STEPS) throw new WalkTooLongError();
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
    if (dict) {
      const reason = judge(dict, objects);
      if (reason) return reason;
      for (const [, value] of dict.entries()) {
        steps += 1;
        if (value instanceof PDFDict || value instanceof PDFArray || value instanceof PDFStream)
          stack.push(value);
      }
    } else if (object instanceof PDFArray) {
      for (const item of object.asArray()) {
        steps += 1;
        if (item instanceof PDFDict || item instanceof PDFArray) stack.push(item);
      }
    }
  }
  return undefined;
}
