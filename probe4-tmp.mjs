import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3105';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
await page.goto(BASE + '/sign-in');
await page.getByLabel('Email').fill('admin@example.com');
await page.getByLabel('Password').fill('correct-horse-battery');
await page.getByRole('button', { name: /sign in/i }).click();
await page.getByTestId('signed-in-as').waitFor();
for (const large of [false, true]) {
  await page.evaluate((l) => document.documentElement.classList.toggle('large-type', l), large);
  const r = await page.evaluate(() => {
    const nav = document.querySelector('.site-header nav');
    const kids = [...nav.querySelectorAll('a, button, .account')].map((e) => { const b = e.getBoundingClientRect(); return [e.textContent.trim().slice(0, 14), Math.round(b.left), Math.round(b.top), Math.round(b.width)]; });
    return { h: nav.getBoundingClientRect().height, kids };
  });
  console.log(large, JSON.stringify(r));
}
await browser.close();
