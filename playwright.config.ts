import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
// Debian's Chromium here (Playwright cannot download its own); elsewhere Playwright's own, if installed.
const executablePath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  // In CI a test that fails is run once more: one that then passes is reported as flaky, by name, at the end
  // of CI's log (.ci/run); one that fails twice fails the run (docs/testing.md, "Browsers").
  retries: process.env.CI ? 1 : 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['github']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: /audit-after-run\.spec\.ts/ },
    // Last, once every other browser test has finished: the audit log of the whole run, verified.
    { name: 'audit', testMatch: /audit-after-run\.spec\.ts/, dependencies: ['chromium'] },
  ],
  webServer: {
    command: `node --import tsx tests/e2e/serve.ts`,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    url: `http://127.0.0.1:${port}/api/health`,
    env: { E2E_PORT: String(port), NODE_ENV: 'test' },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
