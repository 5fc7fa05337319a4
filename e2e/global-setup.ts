/**
 * Playwright global setup (runs once the web server answers): creates the e2e users in the e2e
 * database with the documented admin command, then signs each one in through the /sign-in page and
 * saves the session, so specs start signed in (the admin by default; others by storageStateOf).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type FullConfig } from '@playwright/test';
import { E2E_PASSWORD, E2E_USERS, storageStateOf, type E2eUser } from './support/users';

export default async function globalSetup(config: FullConfig): Promise<void> {
  const dbFile = process.env.E2E_DB_FILE;
  if (!dbFile) throw new Error('E2E_DB_FILE is not set (playwright.config.ts sets it)');
  const tsx = path.resolve('node_modules', '.bin', 'tsx');
  for (const u of Object.values(E2E_USERS) as { email: string; roles: string; tenant?: string; also?: { roles: string; tenant: string } }[]) {
    for (const m of [{ roles: u.roles, tenant: u.tenant ?? 'kittiwake' }, ...(u.also ? [u.also] : [])]) {
      // The same command the README documents (npm run stockroom -- admin create …), without npm's banner.
      execFileSync(tsx, ['--conditions=react-server', 'cli/stockroom.ts', 'admin', 'create', '--email', u.email, '--password', E2E_PASSWORD, '--role', m.roles, '--tenant', m.tenant], {
        env: { ...process.env, DATABASE_URL: `file:${dbFile}`, CHECKPOINT_DISABLE: '1' },
        stdio: 'pipe',
      });
    }
  }
  const project = config.projects[0]!;
  const browser = await chromium.launch(project.use.launchOptions);
  try {
    for (const user of Object.keys(E2E_USERS) as E2eUser[]) {
      const context = await browser.newContext({ baseURL: project.use.baseURL });
      const page = await context.newPage();
      await page.goto('/sign-in');
      await page.getByLabel('Email').fill(E2E_USERS[user].email);
      await page.getByLabel('Password').fill(E2E_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('signed-in-as').waitFor();
      fs.mkdirSync(path.dirname(storageStateOf(user)), { recursive: true });
      await context.storageState({ path: storageStateOf(user) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
}
