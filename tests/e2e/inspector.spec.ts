import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { pageReady, seedSession } from './support';

const assets = fileURLToPath(new URL('../../dist/assets', import.meta.url));

test.describe('the Stately inspector', () => {
  test('is not in the production bundle', () => {
    const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(`${assets}/${file}`, 'utf8');
      expect(text, file).not.toContain('createBrowserInspector');
      expect(text, file).not.toContain('https://stately.ai/inspect');
    }
  });

  test('is not started by ?inspect on the production build', async ({ page, context }) => {
    await seedSession(page, { language: 'en' });
    let popups = 0;
    context.on('page', () => (popups += 1));
    await page.goto('/find-my-case?inspect');
    await pageReady(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find my case');
    expect(popups).toBe(0);
  });
});
