/**
 * Redaction at rest (issue 33): what it costs per stored run. In process: redacting one run (a
 * 3-round run with a 200-item catalogue result, a card number in its question and an e-mail in a
 * result) with every class on, pseudonymised and not. Stored: 250 runs saved on SQLite with the
 * tenant's redaction on (pseudonymised: one key lookup per subject) against the same 250 without;
 * the difference per run. Stored governed: 250 governed runs paused on an approval (their spec and
 * result with its checkpoint, the approval request with its proposal) created on SQLite with the
 * tenant's redaction on (redacted copies, the real ones sealed) against the same without; the
 * difference per governed run. Target ≤ 1 ms per stored run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_TENANT, newPseudonymKey, RedactionSchema, Redactor } from '../lib/governance';
import { benchPersistRuns, withDatabase } from '../lib/db/testing/bench-db';
import { createApprovalRequest } from '../lib/db/governance/governance-approvals';
import { createGovernedRun } from '../lib/db/governance/governance-runs';
import { redactRun } from '../lib/db/governance/run-redaction';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { median, round, type Figure } from './stats';

const CLASSES = ['card', 'iban', 'email', 'phone', 'secret'] as const;
const RUNS = 250;

function personalRuns(paused = false) {
  return Array.from({ length: RUNS }, (_, i) =>
    makeRun({ paused, runId: `redact-${i}`, query: `Card 4111 1111 1111 1111 was charged twice for order ${i}: why?`, payload: { items: Array.from({ length: 200 }, (_, k) => ({ sku: `SKU-${k}`, contact: k === i % 200 ? 'ada@example.org' : null, stock: k })) } }),
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

    const governed = personalRuns(true);
    const govOff: number[] = [];
    const govOn: number[] = [];
    const cpuOff: number[] = [];
    const cpuOn: number[] = [];
    for (let i = 0; i < repeat; i++) {
      process.env.STOCKROOM_POLICY_FILE = path.join(dir, 'none.json');
      const off = await storeGoverned(governed, `off${i}`);
      process.env.STOCKROOM_POLICY_FILE = file;
      const on = await storeGoverned(governed, `on${i}`);
      govOff.push(off.ms);
      govOn.push(on.ms);
      cpuOff.push(off.cpuMs);
      cpuOn.push(on.cpuMs);
    }
    figures.push({
      name: `redaction cost per stored governed run (sqlite, ${RUNS} paused runs and their approval requests, pseudonymised, sealed)`,
      value: round((median(govOn) - median(govOff)) / RUNS, 3),
      unit: 'ms',
      target: '≤ 1 ms',
      detail: `stored with redaction ${round(median(govOn), 1)} ms, without ${round(median(govOff), 1)} ms`,
    });
    // The same in this process's CPU time (SQLite runs in it): what the machine's load does not inflate.
    figures.push({
      name: `redaction CPU per stored governed run (sqlite, ${RUNS} paused runs and their approval requests, pseudonymised, sealed)`,
      value: round((median(cpuOn) - median(cpuOff)) / RUNS, 3),
      unit: 'ms',
      target: '≤ 1 ms',
      detail: `CPU with redaction ${round(median(cpuOn), 1)} ms, without ${round(median(cpuOff), 1)} ms`,
    });
  } finally {
    if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
    else process.env.STOCKROOM_POLICY_FILE = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** Wall and CPU ms to store `runs` as governed runs paused on an approval (the governed run, then its request), on a fresh SQLite database. */
async function storeGoverned(runs: ReturnType<typeof makeRun>[], tag: string): Promise<{ ms: number; cpuMs: number }> {
  return withDatabase('sqlite', async (db) => {
    const store = async (run: ReturnType<typeof makeRun>, id: string, n: number) => {
      const principal = { subject: `u-${n % 10}`, tenant: DEFAULT_TENANT, scopes: [] };
      await createGovernedRun(db.prisma, { runId: id, status: 'paused', principal, pin: { takenAt: '', tools: [] } as never, policyVersion: 'v1', spec: { query: run.query, tenant: DEFAULT_TENANT }, result: run, lastError: null, owner: null, takenOverAt: null });
      const args = { sku: 'SKU-00001', qty: 5, note: `call ada@example.org about ${id}` };
      await createApprovalRequest(
        db.prisma,
        { id: `apr-${id}`, runId: id, callId: 'tu_w', step: 3, rule: 'writes-need-approval', message: 'approve?', approverRole: 'reviewer', quorum: 1, proposal: { actor: principal.subject, tenant: DEFAULT_TENANT, tool: 'restock', toolVersion: '1', schemaDigest: 'x', arguments: args, policyVersion: 'v1', expiresAt: new Date(Date.now() + 60_000).toISOString() }, digest: 'd' },
        new Date(),
      );
    };
    for (let i = 0; i < 20; i++) await store(runs[i]!, `warm-${tag}-${i}`, i); // warm the write path
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    for (const [i, run] of runs.entries()) await store(run, `${tag}-${i}`, i);
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - t0, cpuMs: (used.user + used.system) / 1000 };
  });
}
