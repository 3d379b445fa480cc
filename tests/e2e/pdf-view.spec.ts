import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { fillStep } from './flows/fill-form';
import { axeViolations, cspViolations, pageReady, recordCspViolations, seedSession } from './support';

/**
 * The application form PDF shown in the page (spec §2 "PDF view"): pdf.js draws its pages to canvases
 * under the portal's CSP, inside the preview (with the way back to it) and on the /pdf page.
 */
const A2 = FORM_CATALOGUE.a2;

/** Share of dark pixels of every canvas of the viewer (what a person sees of each page). */
async function canvasInk(page: Page): Promise<number[]> {
  return page.locator('canvas.pdf-viewer__page').evaluateAll((canvases) =>
    canvases.map((node) => {
      const canvas = node as HTMLCanvasElement;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data) return 0;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4)
        if ((data[i] ?? 255) + (data[i + 1] ?? 255) + (data[i + 2] ?? 255) < 450 && (data[i + 3] ?? 0) > 0)
          dark++;
      return dark / (data.length / 4);
    }),
  );
}

async function toPreview(page: Page) {
  await page.goto(firstStepPath('a2'));
  await pageReady(page);
  await fillStep(page, A2, 0, A2.example);
  await page.getByRole('button', { name: 'Save and go to preview' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Form Preview');
}

test.describe('the PDF view', () => {
  const warnings: string[] = [];

  test.beforeEach(async ({ page }) => {
    warnings.length = 0;
    page.on('console', (m) => {
      // pdf.js reports font and rendering problems as "Warning: ..." on the console.
      if (/^Warning:|pdf|font|glyf/i.test(m.text())) warnings.push(m.text());
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await recordCspViolations(page);
    await seedSession(page, { language: 'en' });
  });

  test('the preview shows the application form in the page, drawn by pdf.js, and closes back to it', async ({
    page,
  }) => {
    await toPreview(page);
    await page.getByRole('button', { name: 'View the application form (PDF)' }).click();

    const viewer = page.getByRole('region', { name: 'The application form' }).last();
    await expect(viewer.getByRole('img', { name: /^Page 1 of \d+$/ })).toBeVisible();
    await expect(viewer).toHaveAttribute('aria-busy', 'false');
    const ink = await canvasInk(page);
    expect(ink.length).toBeGreaterThan(0);
    for (const share of ink) expect(share).toBeGreaterThan(0.01);
    await expect(page.getByRole('link', { name: 'Download the application form (PDF)' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
    expect(await cspViolations(page)).toEqual([]);
    expect(warnings).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Close the application form' }).click();
    await expect(page.locator('canvas.pdf-viewer__page')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'View the application form (PDF)' })).toBeFocused();
    await expect(page).toHaveURL(/\/form-a2-step2$/);
  });

  test('/pdf draws the form under the department’s name and leads back to the application', async ({
    page,
  }) => {
    await toPreview(page);
    // The draft's number, from this browser's draft tokens (ui/flows/apply/draft-tokens.ts).
    const applicationNo = () =>
      page.evaluate(
        () => Object.keys(JSON.parse(localStorage.getItem('draft-tokens') ?? '{}') as object)[0] ?? '',
      );
    await expect.poll(applicationNo).not.toBe('');
    await page.goto(`/pdf?application=${await applicationNo()}&back=/form-a2-step2`);

    await expect(page.getByText('Buildings Department').first()).toBeVisible();
    await expect(page.getByRole('img', { name: /^Page 1 of \d+$/ })).toBeVisible();
    await expect(page.locator('.pdf-viewer')).toHaveAttribute('aria-busy', 'false');
    for (const share of await canvasInk(page)) expect(share).toBeGreaterThan(0.01);
    expect(await cspViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Back to the application' }).click();
    await expect(page).toHaveURL(/\/form-a2-step2$/);
  });

  test('/pdf never leads back to another site', async ({ page }) => {
    await page.goto('/pdf?back=https://example.com/');
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });
});
