/**
 * `npm run bench -- --only rewrite` (issue 33): `redact --rewrite` over 1,000 runs a tenant stored
 * before its classes applied (3-round runs, a card number in the question, an e-mail address in a
 * 200-item catalogue result), in its batches (5 runs per transaction on SQLite, 50 on PostgreSQL,
 * each with its evidence event); beside it, the runs page's first page and count read every 20 ms (on
 * SQLite through the same client, as the embedded server does; on PostgreSQL from a second connection).
 * Measures, never asserts.
 */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../lib/db/core/client';
import { withDatabase, type BenchProvider } from '../lib/db/testing/bench-db';
import { rewriteRedaction } from '../lib/db/runs/redaction-rewrite';
import { saveRuns } from '../lib/db/runs/runs-write';
import { countRuns, listRuns } from '../lib/db/runs/runs-list';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { signingKeyring, TEST_EVIDENCE_KEY } from '../lib/governance/evidence-signing';
import { percentile, round, type Figure } from './stats';

const RUNS = 1_000;

function policy(file: string, classes: string[] | null) {
  fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { kittiwake: classes ? { redaction: { classes } } : {} }, tools: {} }));
}

async function one(provider: BenchProvider, file: string): Promise<Figure[]> {
  return withDatabase(provider, async (db, url) => {
    policy(file, null);
    const inputs = Array.from({ length: RUNS }, (_, i) => ({
      run: makeRun({ query: `Card 4111 1111 1111 1111 was charged twice for order ${i}`, payload: { items: Array.from({ length: 200 }, (_, k) => ({ sku: `SKU-${k}`, contact: k === i % 200 ? 'ada@example.org' : null })) } }),
      meta: makeMeta({ tenant: 'kittiwake' }),
    }));
    await saveRuns(inputs, db);
    policy(file, ['card', 'email']);
    const key = signingKeyring(generateKeyPairSync('ed25519').privateKey, [], TEST_EVIDENCE_KEY as Buffer);
    const reader = provider === 'postgres' ? openDatabase(url) : db;
    const page: number[] = [];
    let done = false;
    const reading = (async () => {
      // From when the read is due (20 ms after the last ended): time the process spent elsewhere before it could start counts.
      while (!done) {
        const due = performance.now() + 20;
        await new Promise((r) => setTimeout(r, 20));
        await Promise.all([listRuns({ filters: { tenant: 'kittiwake' }, limit: 50 }, reader), countRuns({ tenant: 'kittiwake' }, {}, reader)]);
        page.push(performance.now() - due);
      }
    })();
    const t0 = performance.now();
    const report = await rewriteRedaction('kittiwake', { by: 'bench', db, key });
    const ms = performance.now() - t0;
    done = true;
    await reading;
    if (reader !== db) await reader.close();
    const load = `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
    return [
      { name: `redact --rewrite of ${RUNS.toLocaleString('en')} runs (${provider}), per run`, value: round(ms / report.runs, 2), unit: 'ms', detail: `${report.runs} runs in ${report.batches} transactions, ${round(ms / 1000, 1)} s in all, ${report.left} left; ${load}` },
      { name: `runs page (first page + count) while it runs (${provider}), p95`, value: round(percentile(page, 95), 1), unit: 'ms', target: '≤ 150 ms', detail: `p50 ${round(percentile(page, 50), 1)} ms over ${page.length} reads, from when each was due; ${load}` },
    ];
  });
}

export async function benchRedactionRewrite(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-rewrite-'));
  const file = path.join(dir, 'policy.json');
  const previous = process.env.STOCKROOM_POLICY_FILE;
  process.env.STOCKROOM_POLICY_FILE = file;
  try {
    const figures = await one('sqlite', file);
    try {
      figures.push(...(await one('postgres', file)));
    } catch (err) {
      figures.push({ name: 'redact --rewrite on PostgreSQL', value: 0, unit: 'n/a', detail: `not measured: ${err instanceof Error ? err.message : String(err)}` });
    }
    return figures;
  } finally {
    if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
    else process.env.STOCKROOM_POLICY_FILE = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
