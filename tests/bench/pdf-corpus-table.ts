/**
 * `npx tsx tests/bench/pdf-corpus-table.ts [path/to/pdf-check.ts]`: checks every hostile variant of
 * tests/support/pdf-hostile.ts (and the bombs of pdf-corpus.ts) and prints a Markdown table of the answers
 * (`accepted` or the reason) with the time each took. Give another checkout's pdf-check.ts to compare
 * (docs/decisions/031-pdf-active-content.md has the table before and after).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import * as hostile from '../support/pdf-hostile';
import { contentStreamBomb, landscapeA4, objectStreamBomb } from '../support/pdf-corpus';

type Check = (bytes: Uint8Array) => Promise<{ ok: boolean; reason?: string }>;

const modulePath = path.resolve(process.argv[2] ?? 'api/modules/shared/uploads/pdf-check.ts');
const { checkPdf } = (await import(pathToFileURL(modulePath).href)) as { checkPdf: Check };

const variants: [string, () => Promise<Uint8Array> | Uint8Array][] = [
  ['plain landscape A4 (control)', landscapeA4],
  ['1. object 1 twice, JavaScript in the later one (xref → first)', hostile.duplicateCatalogJsLater],
  ['1. object 1 twice, JavaScript in the first one (xref → first)', hostile.duplicateCatalogJsFirst],
  [
    '1. JavaScript in an object stream shadowed by a later definition',
    hostile.javaScriptInShadowedObjectStream,
  ],
  ['2. Launch with /S by reference (link)', hostile.indirectLaunch],
  ['2. Launch written /Laun#63h (link)', hostile.escapedLaunchLink],
  ['3. /EmbeddedFiles names tree', hostile.embeddedFilesTree],
  ['3. file specification with /EF', hostile.embeddedFileSpec],
  ['3. FileAttachment annotation', hostile.fileAttachmentAnnotation],
  ['4. AcroForm /XFA (no script)', hostile.xfaForm],
  ['4. RichMedia annotation', hostile.richMediaAnnotation],
  ['4. GoToR link', hostile.goToRLink],
  ['4. GoToE link', hostile.goToELink],
  ['4. SubmitForm link', hostile.submitFormLink],
  ['4. ImportData link', hostile.importDataLink],
  ['4. JavaScript in a form field /AA (object stream)', hostile.fieldJavaScript],
  ['5. HTML before %PDF-', hostile.leadingData],
  ['5. ZIP after %%EOF', hostile.trailingZip],
  ['5. whitespace and NULs after %%EOF (control)', hostile.trailingWhitespace],
  ['6. 500 pages (control)', () => hostile.manyPages(500)],
  ['6. 501 pages', () => hostile.manyPages(501)],
  ['6. 30,000 pages (one page referenced 30,000 times)', () => hostile.repeatedPageRefs(30_000)],
  ['6. page tree that contains itself', hostile.loopingPageTree],
  ['7. content stream of 1 GiB', () => contentStreamBomb(1024)],
  ['7. object stream of 200 MiB', () => objectStreamBomb(200)],
  ['queue: 40,000 small objects in object streams (control)', () => hostile.objectStreamHeavy(40_000)],
];

console.log(`checks by ${path.relative(process.cwd(), modulePath)}\n`);
console.log('| variant | bytes | answer | ms |');
console.log('| --- | ---: | --- | ---: |');
for (const [name, make] of variants) {
  const bytes = await make();
  const started = performance.now();
  let answer: string;
  try {
    const result = await checkPdf(bytes);
    answer = result.ok ? 'accepted' : `refused: ${result.reason}`;
  } catch (error) {
    answer = `threw ${(error as Error).name}`;
  }
  const ms = (performance.now() - started).toFixed(0);
  console.log(`| ${name} | ${bytes.length.toLocaleString('en')} | ${answer} | ${ms} |`);
}
