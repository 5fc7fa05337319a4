/**
 * Takes README's screenshot: the first demo as a newcomer does it, in Debian's Chromium, against a running
 * dashboard (`npm start`) and one of its admins:
 *   tsx scripts/docs/screenshot-first-demo.ts --url http://127.0.0.1:3000 --email E --password P
 * Signs in, clicks **Run the matrix on the bundled dataset** on the home page, waits for the matrix page's
 * complete table and writes docs/images/first-demo-matrix.png (the table's panel, at 1× to keep it small).
 */
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { parseArgs, stringFlag, type FlagSpec } from '../../cli/args';

const OUT = 'docs/images/first-demo-matrix.png';

/** The script's flags (scripts/docs/doc-references.ts checks the documentation against them). */
export const SCREENSHOT_FLAGS = {
  url: { type: 'string', description: "the dashboard's address" },
  email: { type: 'string', description: "an admin's or operator's email" },
  password: { type: 'string', description: 'their password' },
} as const satisfies FlagSpec;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), SCREENSHOT_FLAGS);
  const [url, email, password] = ['url', 'email', 'password'].map((f) => {
    const v = stringFlag(args, f);
    if (!v) throw new Error(`--${f} is required`);
    return v;
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ baseURL: url, viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1, colorScheme: 'light' });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email!);
    await page.getByLabel('Password').fill(password!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-as').waitFor();
    await page.goto('/');
    await page.getByTestId('start-demo').click();
    await page.waitForURL(/\/matrix\?suite=/);
    // The complete table: a row per setting, and no suite still running.
    await page.locator('[data-testid=delta-table] tbody tr').nth(4).waitFor({ timeout: 180_000 });
    await page.getByTestId('suite-status').waitFor({ state: 'detached', timeout: 180_000 });
    // The panel of the table of deltas: its heading, the table with the red cells to click, and its notes.
    const panel = page.locator('section, .panel').filter({ has: page.getByTestId('delta-table') }).last();
    fs.mkdirSync('docs/images', { recursive: true });
    await panel.screenshot({ path: OUT });
    process.stdout.write(`wrote ${OUT} (${fs.statSync(OUT).size} bytes)\n`);
  } finally {
    await browser.close();
  }
}

if (process.argv[1]?.endsWith('screenshot-first-demo.ts')) await main();
