import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3105';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
let t0 = 0;
page.on('request', (r) => t0 && console.log('  req', Date.now() - t0, r.method(), r.url().replace(BASE, '').slice(0, 60)));
page.on('requestfinished', (r) => t0 && console.log('  fin', Date.now() - t0, r.method(), r.url().replace(BASE, '').slice(0, 60)));
for (let i = 0; i < 2; i++) {
await page.goto(BASE + '/sign-in');
await page.getByLabel('Email').fill('admin@example.com');
await page.getByLabel('Password').fill('correct-horse-battery');
t0 = Date.now();
await page.getByRole('button', { name: /sign in/i }).click();
await page.getByTestId('signed-in-as').waitFor();
console.log('sign-in', Date.now() - t0);
await page.waitForTimeout(300);
t0 = 0;
await page.context().clearCookies();
}
await browser.close();
