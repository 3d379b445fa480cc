import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * WCAG AA contrast of the portal's colour pairs in every theme (light, dark) and every colour mode
 * (normal; weak = invert 80 %; gray = greyscale 100 %). axe checks the rendered light and dark pages;
 * it cannot see CSS filters, so the filtered modes are computed here from the stylesheet itself.
 */
const css = readFileSync(fileURLToPath(new URL('../../ui/theme/global.css', import.meta.url)), 'utf8');

function block(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const body = css.slice(start, css.indexOf('}', start));
  const pairs = [...body.matchAll(/--([\w-]+):[^;]*?(#[0-9a-fA-F]{6})/g)].map((m): [string, string] => [
    m[1] ?? '',
    m[2] ?? '',
  ]);
  return Object.fromEntries(pairs);
}
const light = block(':root');
const themes = { light, dark: { ...light, ...block("html[data-theme='dark']") } };

type Rgb = [number, number, number];
const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as Rgb;
const MODES: Record<string, (c: Rgb) => Rgb> = {
  normal: (c) => c,
  weak: (c) => c.map((v) => 0.8 * (1 - v) + 0.2 * v) as Rgb,
  gray: ([r, g, b]) => {
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    return [y, y, y];
  },
};
const lin = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const luminance = ([r, g, b]: Rgb) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
function ratio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Text colour on background colour, as the stylesheet pairs them. */
const PAIRS: [string, string][] = [
  ['text', 'bg'],
  ['text-muted', 'bg'],
  ['link', 'bg'],
  ['link-visited', 'bg'],
  ['text', 'bg-alt'],
  ['text-muted', 'bg-alt'],
  ['link', 'bg-alt'],
  ['text', 'surface'],
  ['text', 'info-bg'],
  ['link', 'info-bg'],
  ['on-primary', 'primary'],
  ['primary', 'surface'],
  ['text', 'primary-soft'],
  ['error', 'bg'],
  ['ok', 'bg'],
];

describe('colour contrast', () => {
  for (const [theme, vars] of Object.entries(themes)) {
    for (const [mode, filter] of Object.entries(MODES)) {
      it(`meets 4.5:1 for every text pair in the ${theme} theme, ${mode} mode`, () => {
        for (const [fg, bg] of PAIRS) {
          const [f, b] = [vars[fg], vars[bg]];
          expect(f && b, `${fg}/${bg} defined`).toBeTruthy();
          const r = ratio(filter(rgb(f ?? '#000000')), filter(rgb(b ?? '#ffffff')));
          expect(r, `${theme} ${mode} ${fg} on ${bg}: ${r.toFixed(2)}`).toBeGreaterThanOrEqual(4.5);
        }
      });
    }
  }
});
