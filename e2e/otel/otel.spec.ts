import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { saveArtifact } from '../support/helpers';
import { E2E_OTLP_TOKEN } from '../support/users';

const fixture = (name: string) => readFileSync(`lib/otel/testing/fixtures/${name}`);

/** Sends an OTLP/JSON trace to the receiver the way a collector or an SDK exporter would. */
async function sendTrace(page: Page, name: string): Promise<void> {
  const res = await page.request.post('/api/otlp/v1/traces', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_OTLP_TOKEN}` },
    data: fixture(name),
  });
  expect(res.status()).toBe(200);
}

/** The id of the newest imported run whose query is `query`. */
async function importedRunId(page: Page, query: string): Promise<string> {
  await page.goto(`/runs?source=imported&q=${encodeURIComponent(query)}`);
  const row = page.getByTestId('runs-table').locator('tbody tr').first();
  await expect(row.getByTestId('imported-badge')).toBeVisible();
  return (await row.locator('a[href^="/runs/"]').first().getAttribute('href'))!.split('/').pop()!;
}

test('an imported agent trace replays step by step and compares with another', async ({ page }) => {
  await sendTrace(page, 'genai-python-agent.json');
  await sendTrace(page, 'openinference-llamaindex.json');
  const weather = await importedRunId(page, 'Weather in Paris and Oslo?');
  const refunds = await importedRunId(page, 'How long do refunds take?');

  await page.goto(`/runs/${weather}`);
  await expect(page.getByTestId('run-query')).toHaveText('Weather in Paris and Oslo?');
  await expect(page.getByTestId('imported-badge')).toBeVisible();
  const position = page.getByTestId('replay-position');
  await expect(position).toContainText('PLAN → CALL_MODEL');
  await expect(page.locator('[data-testid=state-diagram] svg')).toBeVisible();
  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(position).toContainText('CALL_MODEL → EXECUTE_TOOLS');
  const tool = page.getByTestId('tool-entry').first();
  await expect(tool).toContainText('get_weather');
  await expect(tool).toContainText('Paris');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await expect(position).toContainText('→ DONE');
  await expect(page.getByTestId('final-answer')).toContainText('Paris: 14 °C and rain.');
  await saveArtifact(page, 'otel-imported-replay');

  // The run downloads as a stockroom.run/v1 file.
  const download = await page.request.get(`/api/runs/${weather}/export`);
  expect(download.headers()['content-disposition']).toContain(`run-${weather}.json`);
  expect(await download.json()).toMatchObject({ schema: 'stockroom.run/v1', id: weather, meta: { source: 'imported' } });

  await page.goto(`/compare?a=${weather}&b=${refunds}`);
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await expect(page.getByTestId('compare-summary')).toContainText('step(s) differ');
  await expect(page.getByTestId('compare-table')).toContainText('get_weather');
  await expect(page.getByTestId('compare-table')).toContainText('search_docs');
  await saveArtifact(page, 'otel-imported-compare');

  // The runs table downloads as CSV under the same filters.
  await page.goto('/runs?source=imported');
  const csvHref = await page.getByTestId('runs-csv').getAttribute('href');
  expect(csvHref).toBe('/api/runs/export?source=imported');
  const csv = await (await page.request.get(csvHref!)).text();
  // One line per imported run the page counts (other specs may have imported runs too), these two among them.
  const counted = Number((await page.getByTestId('runs-count').textContent())!.match(/^([\d,]+)/)![1]!.replace(/,/g, ''));
  const lines = csv.split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(1 + counted);
  for (const id of [weather, refunds]) expect(lines.some((l) => l.startsWith(`${id},`))).toBe(true);
});

test('the receiver refuses a request without a tenant token', async ({ request }) => {
  const res = await request.post('/api/otlp/v1/traces', { headers: { 'content-type': 'application/json' }, data: fixture('genai-python-agent.json') });
  expect(res.status()).toBe(401);
});

test('an OpenInference agent trace shows its retriever step in replay, and its session lists the run', async ({ page }) => {
  await sendTrace(page, 'openinference-openai-agent.json');
  const id = await importedRunId(page, 'What is the weather in Paris?');
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-query')).toHaveText('What is the weather in Paris?');
  await page.getByRole('button', { name: 'Next transition' }).click();
  const step = page.getByTestId('span-entry').first();
  await expect(step).toContainText('retriever');
  await expect(step).toContainText('lookup_city_notes');
  await expect(page.getByTestId('tool-entry').first()).toContainText('get_weather');
  await saveArtifact(page, 'otel-openinference-retriever-step');

  await page.goto('/runs?session=session-weather-42');
  const link = page.getByRole('link', { name: 'session session-weather-42' }).first();
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/sessions\/session-weather-42$/);
  await expect(page.getByTestId('session-runs')).toContainText('What is the weather in Paris?');
  await saveArtifact(page, 'otel-session-view');
});
