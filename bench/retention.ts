/**
 * `npm run bench -- --only retention` (issue 33): the retention schedule over 100,000 seeded runs (the
 * runs-page bench's seed: runs started over ~35 days) with `runs.harness` keeping the last 10 days,
 * applied in one go as `stockroom retention` does (250 runs on SQLite, 500 on PostgreSQL, and their
 * tombstone per transaction); beside it, the runs page's first page and count (the runs-page bench's
 * query) read every 20 ms while it runs: on SQLite through the same client (the embedded server runs
 * its sweep in the process serving pages), on PostgreSQL from a second connection (a web server beside
 * the worker that sweeps). Measures, never asserts.
 */
import os from 'node:os';
import { generateKeyPairSync } from 'node:crypto';
import { openDatabase } from '../lib/db/core/client';
import { seedRuns, withDatabase, type BenchProvider } from '../lib/db/testing/bench-db';
import { applyRetention } from '../lib/db/traces/retention';
import { countRuns, listRuns } from '../lib/db/runs/runs-list';
import { parsePolicy } from '../lib/governance/policy-file';
import { signingKeyring, TEST_EVIDENCE_KEY } from '../lib/governance/evidence-signing';
import { percentile, round, type Figure } from './stats';

const RUNS = 100_000;
/** The seed's runs start 2025-01-01 and every 30 s after (shuffled): about 34.7 days. */
const SEED_START_MS = Date.UTC(2025, 0, 1);
const KEEP_DAYS = 10;

async function one(provider: BenchProvider): Promise<Figure[]> {
  return withDatabase(provider, async (db, url) => {
    await seedRuns(db, RUNS);
    const now = new Date(SEED_START_MS + RUNS * 30_000);
    const policy = parsePolicy(JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { kittiwake: { retention: { runs: { harness: KEEP_DAYS } } } }, tools: {} }), 'bench-policy.json');
    const key = signingKeyring(generateKeyPairSync('ed25519').privateKey, [], TEST_EVIDENCE_KEY as Buffer);
    // The reader: on PostgreSQL its own connection, as a web server beside the worker running the sweep
    // has; on SQLite the same client, as the embedded server runs its sweep in the process serving pages.
    const reader = provider === 'postgres' ? openDatabase(url) : db;
    const page: number[] = [];
    let done = false;
    const reading = (async () => {
      while (!done) {
        const t = performance.now();
        await Promise.all([listRuns({ filters: { tenant: 'kittiwake' }, limit: 50 }, reader), countRuns({ tenant: 'kittiwake' }, {}, reader)]);
        page.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    const report = await applyRetention(policy, { tenant: 'kittiwake', now, db, key });
    const ms = performance.now() - t0;
    done = true;
    await reading;
    if (reader !== db) await reader.close();
    const line = report.lines.find((l) => l.what === 'runs.harness')!;
    const load = `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
    return [
      { name: `retention over ${RUNS.toLocaleString('en')} runs (${provider})`, value: round(ms / 1000, 2), unit: 's', target: '≤ 60 s', detail: `${line.goes} removed, ${line.stays} kept, in ${Math.ceil(line.goes / (provider === 'sqlite' ? 250 : 500))} transactions with their tombstones; ${load}` },
      { name: `runs page (first page + count) while it runs (${provider}), p95`, value: round(percentile(page, 95), 1), unit: 'ms', target: '≤ 150 ms', detail: `p50 ${round(percentile(page, 50), 1)} ms over ${page.length} reads from a second connection; ${load}` },
    ];
  });
}

export async function benchRetention(): Promise<Figure[]> {
  const figures = await one('sqlite');
  try {
    figures.push(...(await one('postgres')));
  } catch (err) {
    figures.push({ name: 'retention on PostgreSQL', value: 0, unit: 'n/a', detail: `not measured: ${err instanceof Error ? err.message : String(err)}` });
  }
  return figures;
}
