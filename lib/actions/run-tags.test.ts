/**
 * Tags from the run form (issue 37): a run started from the dashboard, governed or not, is stored
 * with the tags the operator typed, in their one form; a bad tag is refused naming `tags` and nothing
 * runs or is stored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-run-tags-'));
  process.env.STOCKROOM_EVIDENCE_KEY_FILE = path.join(dir, 'evidence-key');
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
  delete process.env.STOCKROOM_EVIDENCE_KEY_FILE;
  fs.rmSync(dir, { recursive: true, force: true });
});

const tagsOf = async (runId: string) => (await (await import('../db/core/client')).getDb().prisma.runTag.findMany({ where: { runId }, orderBy: { tag: 'asc' } })).map((t) => [t.tenant, t.tag]);

describe('tags from the run form', () => {
  it('stores an ungoverned and a governed run with the tags typed, comma-separated', async () => {
    const { runOneAction } = await import('./run-one');
    const { runGovernedAction } = await import('./run-governed');
    env.as('operator');
    const one = await runOneAction({ datasetId: 'bundled', caseId: 'S003', tags: ' nightly, checkout v2 ,nightly' } as never);
    if (!one.ok) throw new Error(one.error);
    expect(await tagsOf(one.data.runId)).toEqual([['kittiwake', 'checkout v2'], ['kittiwake', 'nightly']]);
    const governed = await runGovernedAction({ datasetId: 'bundled', caseId: 'S003', tags: ['audited'] } as never);
    if (!governed.ok) throw new Error(governed.error);
    expect(await tagsOf(governed.data.runId)).toEqual([['kittiwake', 'audited']]);
  });

  it('refuses a bad tag naming `tags`, running and storing nothing', async () => {
    const { runOneAction } = await import('./run-one');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const before = await getDb().prisma.run.count();
    const res = await runOneAction({ datasetId: 'bundled', caseId: 'S003', tags: `ok, ${'x'.repeat(65)}` } as never);
    expect(res).toMatchObject({ ok: false, fieldErrors: { tags: [expect.stringContaining('longer than 64 characters')] } });
    expect(await getDb().prisma.run.count()).toBe(before);
  });
});
