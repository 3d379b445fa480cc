/**
 * `npm run fonts:printable`: writes machines/rules/printable-set.ts, the characters the application PDF
 * can print, from the fonts it embeds (api/modules/shared/pdf/application-pdf.ts `fontCodePoints`). Run it after
 * changing the PDF's fonts; tests/unit/printable.test.ts fails until then.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printableSetSource } from '../machines/rules/printable-encode';
import { fontCodePoints } from '../api/modules/shared/pdf/pdf-fonts';

const target = fileURLToPath(new URL('../machines/rules/printable-set.ts', import.meta.url));
writeFileSync(target, printableSetSource(fontCodePoints()));
console.log(`wrote ${target}`);
