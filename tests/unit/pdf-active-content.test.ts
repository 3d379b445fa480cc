import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkPdf } from '../../api/modules/shared/uploads/pdf-check';
import { SIZES_PT, landscapeA4 } from '../support/pdf-corpus';
import * as hostile from '../support/pdf-hostile';
import { displayFileName } from '../../api/modules/shared/uploads/checked-upload';
import { contentDisposition } from '../../api/http/download';

/**
 * Uploaded PDFs that would run something when an officer opens them (JavaScript, a program launched,
 * additional actions, another file opened, data sent) are refused as `active-content`, attached files as
 * `embedded-file`, XFA forms as `xfa` (docs/decisions/031-pdf-active-content.md); displayed file names lose
 * bidi controls.
 */

/** A landscape A4 PDF that `change` adds an action to, saved with or without object streams. */
async function withAction(change: (doc: PDFDocument) => void, useObjectStreams = true): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([SIZES_PT.A4.width, SIZES_PT.A4.height]);
  change(doc);
  return doc.save({ useObjectStreams });
}

const js = (doc: PDFDocument) =>
  doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("hi")') });

describe('a PDF with active content', () => {
  it('is refused with an /OpenAction that runs JavaScript (inline)', async () => {
    const bytes = await withAction((doc) => doc.catalog.set(PDFName.of('OpenAction'), js(doc)));

    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'active-content' });
  });

  it('is refused with an /OpenAction that runs JavaScript (in an object stream, by reference)', async () => {
    const bytes = await withAction(
      (doc) => doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(js(doc))),
      true,
    );

    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'active-content' });
  });

  it('is refused with a document-level JavaScript name tree', async () => {
    const bytes = await withAction((doc) => {
      const tree = doc.context.obj({ Names: [PDFString.of('init'), doc.context.register(js(doc))] });
      doc.catalog.set(PDFName.of('Names'), doc.context.obj({ JavaScript: doc.context.register(tree) }));
    }, false);

    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'active-content' });
  });

  it('is refused with a Launch action on a page (additional actions)', async () => {
    const bytes = await withAction((doc) => {
      const launch = doc.context.obj({ S: 'Launch', F: PDFString.of('cmd.exe') });
      doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: launch }));
    });

    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'active-content' });
  });

  it('is refused with a link annotation that launches a program', async () => {
    const bytes = await withAction((doc) => {
      const annot = doc.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [0, 0, 100, 100],
        A: { S: 'Launch', F: PDFString.of('calc.exe') },
      });
      doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(annot)]));
    });

    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'active-content' });
  });

  it('is accepted with a plain web link (a URI action runs nothing)', async () => {
    const bytes = await withAction((doc) => {
      const annot = doc.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [0, 0, 100, 100],
        A: { S: 'URI', URI: PDFString.of('https://www.bd.gov.hk/') },
      });
      doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(annot)]));
    });

    expect((await checkPdf(bytes)).ok).toBe(true);
  });

  it('leaves a plain drawing accepted', async () => {
    expect((await checkPdf(await landscapeA4())).ok).toBe(true);
  });
});

describe('a hostile PDF (tests/support/pdf-hostile.ts)', () => {
  it.each<[string, () => Promise<Uint8Array>, string]>([
    [
      'object 1 twice, the first (where the xref points) with JavaScript',
      hostile.duplicateCatalogJsFirst,
      'active-content',
    ],
    ['object 1 twice, the later one with JavaScript', hostile.duplicateCatalogJsLater, 'active-content'],
    [
      'JavaScript in an object stream a later definition shadows',
      hostile.javaScriptInShadowedObjectStream,
      'active-content',
    ],
    ['a Launch action whose /S is a reference', hostile.indirectLaunch, 'active-content'],
    ['a Launch action written /Laun#63h', hostile.escapedLaunchLink, 'active-content'],
    ['a file in the /EmbeddedFiles names tree', hostile.embeddedFilesTree, 'embedded-file'],
    ['a file specification with /EF', hostile.embeddedFileSpec, 'embedded-file'],
    ['a FileAttachment annotation', hostile.fileAttachmentAnnotation, 'embedded-file'],
    ['an XFA form without script', hostile.xfaForm, 'xfa'],
    ['a RichMedia annotation', hostile.richMediaAnnotation, 'active-content'],
    ['a GoToR link (opens another file)', hostile.goToRLink, 'active-content'],
    ['a GoToE link (opens an embedded file)', hostile.goToELink, 'active-content'],
    ['a SubmitForm link', hostile.submitFormLink, 'active-content'],
    ['an ImportData link', hostile.importDataLink, 'active-content'],
    ["JavaScript in a form field's /AA, in an object stream", hostile.fieldJavaScript, 'active-content'],
  ])('is refused: %s', async (_name, make, reason) => {
    expect(await checkPdf(await make())).toEqual({ ok: false, reason });
  });
});

describe('displayed file names', () => {
  it.each([
    ['right-to-left override', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['left-to-right and right-to-left marks', '\u200Eplan\u200F.pdf', 'plan.pdf'],
    ['isolates and embeddings', '\u2066a\u2067b\u2068c\u2069\u202Ad\u202Be\u202C.pdf', 'abcde.pdf'],
    ['zero-width space and Arabic letter mark', 'pl\u200Ban\u061C.pdf', 'plan.pdf'],
  ])('lose %s', (_name, given, shown) => {
    expect(displayFileName(given)).toBe(shown);
  });

  it('keep Chinese names as they are', () => {
    expect(displayFileName('平面圖 A3.pdf')).toBe('平面圖 A3.pdf');
  });

  it('never carry a bidi control into Content-Disposition', () => {
    const header = contentDisposition('invoice\u202Efdp.pdf');

    expect(header).not.toMatch(/%E2%80%AE/i);
    expect(header).not.toContain('\u202E');
  });
});
