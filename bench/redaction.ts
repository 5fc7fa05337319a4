/**
 * Redaction at rest (issue 33): what it costs per stored run. In process: redacting one run (a
 * 3-round run with a 200-item catalogue result, a card number in its question and an e-mail in a
 * result) with every class on, pseudonymised and not. Stored: 250 runs saved on SQLite with the
 * tenant's redaction on (pseudonymised: one key lookup per subject) against the same 250 without;
 * the difference per run. Target ≤ 1 ms per stored run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_TENANT, newPseudonymKey, RedactionSchema, Redactor } from '../lib/governance';
import { benchPersistRuns } from '../lib/db/bench-db';
import { redactRun } from '../lib/db/run-redaction';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { median, round, type Figure } from './stats';

const CLASSES = ['card', 'iban', 'email', 'phone', 'secret'] as const;
const RUNS = 250;

function personalRuns() {
  return Array.from({ length: RUNS }, (_, i) =>
    makeRun({ runId: `redact-${i}`, query: `Card 4111 1111 1111 1111 was charged twice for order ${i}: why?`, payload: { items: Array.from({ length: 200 }, (_, k) => ({ sku: `SKU-${k}`, contact: k === i % 200 ? 'ada@example.org' : null, stock: k })) } }),
  );
}

export async function benchRedaction(repeat: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  const runs = personalRuns();
  for (const pseudonymise of [false, true]) {
    const policy = RedactionSchema.parse({ classes: CLASSES, pseudonymise });
    const key = newPseudonymKey();
    for (const run of runs.slice(0, 20)) redactRun(run, new Redactor(policy, key)); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      for (const run of runs) redactRun(run, new Redactor(policy, key));
      samples.push((performance.now() - t0) / runs.length);
    }
    figures.push({ name: `redact one run in process (${pseudonymise ? 'pseudonymised' : 'masked'})`, value: round(median(samples), 3), unit: 'ms', target: '≤ 1 ms' });
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-redaction-'));
  const file = path.join(dir, 'policy.json');
  fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { [DEFAULT_TENANT]: { redaction: { classes: CLASSES, pseudonymise: true } } }, tools: {} }));
  const inputs = runs.map((run, i) => ({ run, meta: makeMeta({ createdBy: `u-${i % 10}` }) }));
  const previous = process.env.STOCKROOM_POLICY_FILE;
  try {
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < repeat; i++) {
      process.env.STOCKROOM_POLICY_FILE = path.join(dir, 'none.json');
      off.push((await benchPersistRuns({ inputs })).ms);
      process.env.STOCKROOM_POLICY_FILE = file;
      on.push((await benchPersistRuns({ inputs })).ms);
    }
    const perRun = (median(on) - median(off)) / RUNS;
    figures.push({
      name: `redaction cost per stored run (sqlite, ${RUNS} runs, pseudonymised)`,
      value: round(perRun, 3),
      unit: 'ms',
      target: '≤ 1 ms',
      detail: `saved with redaction ${median(on)} ms, without ${median(off)} ms`,
    });
  } finally {
    if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
    else process.env.STOCKROOM_POLICY_FILE = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
