import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { build } from 'esbuild';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import commonEn from '../../i18n/en/common.json' with { type: 'json' };
import commonTc from '../../i18n/tc/common.json' with { type: 'json' };
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import formsTc from '../../i18n/tc/forms.json' with { type: 'json' };
import wizardEn from '../../i18n/en/wizard.json' with { type: 'json' };
import wizardTc from '../../i18n/tc/wizard.json' with { type: 'json' };
import { testApplicant } from './fixtures';
import { SCREEN_READER_CASES } from './fixtures-screen-reader';
import { codeSentTo } from './outbox';
import { seedSession } from './support';

/**
 * A person who uses a screen reader logs in to Find my case and tries to withdraw without the tick, with
 * only the screen reader's commands: move to the next item, act on it, type into the focused field. They
 * find every control by what is spoken, never by a selector. The screen reader is Guidepup's Virtual Screen
 * Reader, running inside the page; its spoken phrase log is what we assert on (docs/testing.md, 'The
 * virtual screen reader').
 */

const AUTH = { en: authEn, tc: authTc };
const CASE = { en: caseEn, tc: caseTc };
const FORMS = { en: formsEn, tc: formsTc };
const WIZARD = { en: wizardEn, tc: wizardTc };
const COMMON = { en: commonEn, tc: commonTc };

/** The library's browser build as one classic script (`window.__vsr.virtual`), bundled once per worker. */
let screenReaderScript: string | undefined;
async function screenReaderBundle(): Promise<string> {
  if (screenReaderScript) return screenReaderScript;
  const entry = createRequire(import.meta.url).resolve('@guidepup/virtual-screen-reader/browser.js');
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: '__vsr',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  // An init script runs in a function of its own: the global is made explicit.
  screenReaderScript = `${out.outputFiles[0]!.text}\nwindow.__vsr = __vsr;`;
  return screenReaderScript;
}

interface Vsr {
  virtual: {
    start(options: { container: Node }): Promise<void>;
    stop(): Promise<void>;
    next(): Promise<void>;
    act(): Promise<void>;
    type(text: string): Promise<void>;
    lastSpokenPhrase(): Promise<string>;
    spokenPhraseLog(): Promise<string[]>;
  };
}

/** The screen reader, in every document of the page (an init script is not subject to the page's CSP). */
async function installScreenReader(page: Page): Promise<void> {
  await page.addInitScript({ content: await screenReaderBundle() });
}

async function startScreenReader(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await (window as unknown as { __vsr: Vsr }).__vsr.virtual.start({ container: document.body });
  });
}

/**
 * Press "next item" until the spoken phrase starts with `spoken` (say "textbox, One-time password"), as a
 * person listens down the page; at the end of the page they wait a moment (it may still be loading) and
 * start again from the top. Returns what was spoken there.
 */
async function moveTo(page: Page, spoken: string): Promise<string> {
  const { found, heard } = await page.evaluate(async (want) => {
    const { virtual } = (window as unknown as { __vsr: Vsr }).__vsr;
    const heard: string[] = [];
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      await virtual.next();
      const phrase = await virtual.lastSpokenPhrase();
      if (phrase.startsWith(want)) return { found: phrase, heard };
      heard.push(phrase);
      if (phrase === 'end of document') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { found: null, heard };
  }, spoken);
  // What one pass over the page said, to see why the item was not there.
  const lastPass = heard.slice(heard.lastIndexOf('document', heard.length - 2));
  expect(found, `the screen reader reaches “${spoken}”; it read:\n${lastPass.join('\n')}`).not.toBeNull();
  return found!;
}

/** Press "next item" `count` times and return what each press said. */
async function readNext(page: Page, count: number): Promise<string[]> {
  return page.evaluate(async (times) => {
    const { virtual } = (window as unknown as { __vsr: Vsr }).__vsr;
    const said: string[] = [];
    for (let i = 0; i < times; i++) {
      await virtual.next();
      said.push(await virtual.lastSpokenPhrase());
    }
    return said;
  }, count);
}

async function act(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __vsr: Vsr }).__vsr.virtual.act());
}

async function typeText(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => (window as unknown as { __vsr: Vsr }).__vsr.virtual.type(t), text);
}

async function spokenLog(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __vsr: Vsr }).__vsr.virtual.spokenPhraseLog());
}

/** What was spoken since the log had `from` phrases. */
async function spokenSince(page: Page, from: number): Promise<string[]> {
  return (await spokenLog(page)).slice(from);
}

for (const lang of ['en', 'tc'] as const) {
  test(`${lang}: log in to Find my case and refuse a withdrawal without the tick, by screen reader alone`, async ({
    page,
  }) => {
    const n = SCREEN_READER_CASES[lang];
    const a = testApplicant(n);
    const f = AUTH[lang].findMyCase;
    const w = FORMS[lang].followUp.withdraw;
    await seedSession(page, { language: lang });
    await installScreenReader(page);
    await page.goto('/withdraw-application');
    await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.login })).toBeVisible();
    await startScreenReader(page);

    // The login: the application number, the contact, Send OTP Code.
    await moveTo(page, `textbox, ${f.applicationNo.label}`);
    await typeText(page, a.applicationNo);
    await moveTo(page, `textbox, ${f.contact.label}`);
    await typeText(page, a.email);
    await moveTo(page, `button, ${f.send}`);
    const beforeSend = (await spokenLog(page)).length;
    await act(page);

    // The code step is announced: focus on the code field, which says where the code went.
    const [sentBefore, sentAfter] = f.sent.split('{{to}}') as [string, string];
    await expect
      .poll(() => spokenSince(page, beforeSend), { message: 'the code field is announced' })
      .toContainEqual(expect.stringMatching(new RegExp(`^textbox, ${escape(f.code.label)}, `)));
    const afterSend = await spokenSince(page, beforeSend);
    const codeField = afterSend.find((p) => p.startsWith(`textbox, ${f.code.label}, `))!;
    expect(codeField).toContain(f.code.description);
    expect(codeField).toContain(sentBefore);
    expect(codeField).toContain(sentAfter);
    // Where it went, masked as on the screen: never the whole address.
    expect(codeField).toMatch(/e\*+@example\.hk/);
    expect(codeField).not.toContain(a.email);
    await test.info().attach(`${lang}: spoken after Send OTP Code`, { body: afterSend.join('\n') });

    await moveTo(page, `textbox, ${f.code.label}`);
    await typeText(page, await codeSentTo(page, a.email));
    await moveTo(page, `button, ${f.submit}`);
    const beforeLogin = (await spokenLog(page)).length;
    await act(page);
    // Logged in: the withdraw form's heading takes focus and is spoken.
    await expect
      .poll(() => spokenSince(page, beforeLogin), { message: 'the withdraw form is announced' })
      .toContainEqual(`heading, ${COMMON[lang].menu.withdrawApplication}, level 1`);
    const afterLogin = await spokenSince(page, beforeLogin);
    await test.info().attach(`${lang}: spoken after Submit`, { body: afterLogin.join('\n') });

    // The form: the reason, the tick box (not ticked), the button.
    await moveTo(page, `textbox, ${w.reason}`);
    const tick = await moveTo(page, `checkbox, ${w.confirm.replace('{{applicationNo}}', a.applicationNo)}`);
    expect(tick).toContain('not checked');
    await moveTo(page, `button, ${CASE[lang].submit.withdrawApplication}`);
    const beforeWithdraw = (await spokenLog(page)).length;
    await act(page);

    // The error summary takes focus as an alert: its title and, as its description, what is wrong, in this
    // language, said at once (not only after reading on).
    await expect
      .poll(
        async () =>
          (await spokenSince(page, beforeWithdraw)).some(
            (p) => p.startsWith(`alert, ${WIZARD[lang].errorTitle}`) && p.includes(w.confirmRequired),
          ),
        { message: 'the error summary is announced with its message' },
      )
      .toBe(true);
    const announced = await spokenSince(page, beforeWithdraw);
    const readOn = await readNext(page, 4);
    expect(readOn.some((p) => p.includes(w.confirmRequired))).toBe(true);
    await test.info().attach(`${lang}: spoken on the form and after Withdraw application`, {
      body: [tick, '(Withdraw application)', ...announced, '(reading on)', ...readOn].join('\n'),
    });
    // Still on the form: nothing was sent.
    await expect(page).toHaveURL(/\/withdraw-application$/);
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
