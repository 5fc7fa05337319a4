import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3105';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
await page.goto(BASE + '/sign-in');
await page.getByLabel('Email').fill('admin@example.com');
await page.getByLabel('Password').fill('correct-horse-battery');
await page.getByRole('button', { name: /sign in/i }).click();
await page.getByTestId('signed-in-as').waitFor();
await page.goto(BASE + '/instructor');
const polls = [];
page.on('response', async (r) => { if (r.url().includes('/api/suites/')) { try { const j = await r.json(); polls.push(`${((Date.now()-t0)/1000).toFixed(1)} ${j.suite.id.slice(-4)} ${j.suite.status} ${j.suite.completed}/${j.suite.total} eta=${j.progress?.etaMs}`); } catch {} } });
await page.locator('[data-flag=naive_retry]').click();
const t0 = Date.now();
await page.getByTestId('instructor-run-suite').click();
for (let i = 0; i < 120; i++) {
  await page.waitForTimeout(500);
  const done = await page.getByTestId('instructor-suite-result').count();
  const counts = await page.getByTestId('suite-count').allTextContents();
  const etas = await page.getByTestId('suite-eta').allTextContents();
  console.log(((Date.now()-t0)/1000).toFixed(1), counts.join(' | '), etas.join(' | '));
  if (done) break;
}
console.log(polls.join('\n'));
await browser.close();
