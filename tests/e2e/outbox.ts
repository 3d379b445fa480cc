import { expect, type Page } from '@playwright/test';

/**
 * The newest one-time password sent to an address, read from the development outbox as a newcomer
 * would. Codes are delivered just after the answer, so it waits for the message to arrive.
 */
export async function codeSentTo(page: Page, address: string): Promise<string> {
  const want = address.toLowerCase().replace(/[\s-]/g, '');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const answer = await page.request.get('/api/dev/outbox');
        const messages = ((await answer.json()) as { data: { to: string; body: string }[] }).data;
        const body =
          messages.find((m) => m.to.toLowerCase().replace(/[\s-]/g, '').endsWith(want))?.body ?? '';
        code = /(?<![-\d])(\d{6})(?![-\d])/.exec(body)?.[1];
        return code;
      },
      { message: `a code sent to ${address}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return code ?? '';
}
