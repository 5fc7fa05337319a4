/**
 * The run service's suite path: one golden case of a suite under one setting, run and stored by
 * whichever worker took its job. Everything the run needs comes from the stored suite row (its
 * configuration, tenant and owner) and the job (dataset directory, golden file, setting, case);
 * the dataset's hash must still be the suite's, else the suite fails naming the mismatch.
 */
import { statSync } from 'node:fs';
import { resolveConfig, type HarnessConfig, type WeaknessFlag, WEAKNESS_FLAGS } from '../harness';
import { evaluateCase } from '../eval';
import { loadGoldenFile, type GoldenCase } from '../eval';
import { FakeJudge } from '../eval';
import { getDb, type Database } from '../db/core';
import type { JobLease } from '../db/core';
import { storeSuiteCase, suiteForCase, suiteStatus, type StoreCaseOutcome } from '../db/suites';
import { loadDataset } from '../stockroom';
import type { Dataset } from '../stockroom';
import { json } from '../db/runs';
import { McpToolExecutor } from '../mcp';
import { resolveExecutor, withAgent, type ModelGate } from './agent';
import { configuredToolServer } from './tool-servers';
import { borrowExecutor } from './executor-pool';
import { metaFor } from './store';
import { loadGoldenSource } from './golden-source';
import { parseGoldenSetRef } from '../eval';

/** How often a running case checks whether its suite was cancelled. */
export const CANCEL_POLL_MS = 1_000;

/** A suite job that can never succeed (another attempt would fail the same way). */
export class SuiteJobError extends Error {
  override readonly name = 'SuiteJobError';
}

/** The weakness flags a setting label names (`none`, or flags joined with `+`). */
export function weaknessesOfSetting(setting: string): WeaknessFlag[] {
  if (setting === 'none') return [];
  const flags = setting.split('+');
  for (const f of flags) if (!(WEAKNESS_FLAGS as readonly string[]).includes(f)) throw new SuiteJobError(`unknown weakness flag '${f}' in setting '${setting}'`);
  return flags as WeaknessFlag[];
}

/** The harness configuration of a suite's setting: the suite's stored configuration with the setting's flags. */
export function configOfSetting(suiteConfig: unknown, setting: string): HarnessConfig {
  return resolveConfig(suiteConfig as Partial<HarnessConfig>, { weaknesses: weaknessesOfSetting(setting) });
}

function datasetFor(dir: string, hash: string): Dataset {
  const dataset = loadDataset(dir);
  if (dataset.hash !== hash) throw new SuiteJobError(`the dataset at ${dir} changed since the suite was queued (hash ${dataset.hash.slice(0, 12)}, suite ${hash.slice(0, 12)})`);
  return dataset;
}

const goldenFiles = new Map<string, { stamp: string; golden: ReturnType<typeof loadGoldenFile> }>();

/** A golden file parsed once per worker while it is unchanged on disk (size and mtime), not once per case. */
function cachedGolden(path: string) {
  const st = statSync(path);
  const stamp = `${st.size}:${st.mtimeMs}`;
  const hit = goldenFiles.get(path);
  if (hit?.stamp === stamp) return hit.golden;
  const golden = loadGoldenFile(path);
  goldenFiles.set(path, { stamp, golden });
  return golden;
}

async function goldenCase(path: string, sha256: string | null, caseId: string, db: Database): Promise<GoldenCase> {
  const golden = parseGoldenSetRef(path) ? await loadGoldenSource(path, db) : cachedGolden(path);
  if (sha256 !== null && golden.sha256 !== sha256) throw new SuiteJobError(`the golden file ${path} changed since the suite was queued`);
  const found = golden.cases.find((c) => c.id === caseId);
  if (!found) throw new SuiteJobError(`the golden file ${path} has no case '${caseId}'`);
  return found;
}

/** The suites whose cases run in this process: one status poll each, however many cases run. */
const watched = new Map<string, { cases: Set<AbortController>; timer: ReturnType<typeof setInterval> }>();

/**
 * Aborts `cancel` when the suite stops being active (cancelled, failed, gone), found by polling its
 * status every CANCEL_POLL_MS — once per suite for all of its cases this process runs, not once
 * per case. Returns the function that stops watching for this case.
 */
function watchSuite(suiteRunId: string, cancel: AbortController, db: Database): () => void {
  let watch = watched.get(suiteRunId);
  if (!watch) {
    const cases = new Set<AbortController>();
    const timer = setInterval(() => {
      void suiteStatus(suiteRunId, db)
        .then((s) => {
          if (s === 'queued' || s === 'running') return;
          for (const c of cases) c.abort(new DOMException('the suite was cancelled', 'AbortError'));
        })
        .catch(() => undefined);
    }, CANCEL_POLL_MS);
    watch = { cases, timer };
    watched.set(suiteRunId, watch);
  }
  const { cases, timer } = watch;
  cases.add(cancel);
  return () => {
    cases.delete(cancel);
    if (cases.size > 0) return;
    clearInterval(timer);
    watched.delete(suiteRunId);
  };
}

export interface RunSuiteCaseInput {
  suiteRunId: string;
  datasetDir: string;
  goldenPath: string;
  setting: string;
  caseId: string;
  /** Which repetition of the case, from 0 (default 0). */
  epoch?: number;
  /** A configured tool server's id: the case runs against it, its confirmed flags stored with the run. */
  toolServer?: string;
}

export type SuiteCaseOutcome = StoreCaseOutcome | { stored: false; reason: 'cancelled' | 'suite-not-active' | 'already-stored' };

/**
 * Runs the case unless it is already stored or its suite is no longer active, and stores it.
 * While the run is in flight the suite's status is checked every CANCEL_POLL_MS: a cancel aborts
 * the run, and nothing is stored for it.
 */
export async function runSuiteCase(
  input: RunSuiteCaseInput,
  options: { signal?: AbortSignal; modelGate?: ModelGate; db?: Database; lease?: JobLease } = {},
): Promise<SuiteCaseOutcome> {
  const db = options.db ?? getDb();
  const epoch = input.epoch ?? 0;
  const suite = await suiteForCase(input.suiteRunId, input.setting, input.caseId, db, epoch);
  if (!suite || (suite.status !== 'queued' && suite.status !== 'running')) return { stored: false, reason: 'suite-not-active' };
  if (suite.caseStored) return { stored: false, reason: 'already-stored' };
  const dataset = datasetFor(input.datasetDir, suite.datasetHash);
  const golden = await goldenCase(input.goldenPath, suite.goldenSha256, input.caseId, db);
  const server = input.toolServer !== undefined ? configuredToolServer(input.toolServer, suite.tenant) : undefined;
  if (server === null) throw new SuiteJobError(`the tool server '${input.toolServer}' is no longer configured`);
  const settingConfig = configOfSetting(json(suite.config, 'suite config'), input.setting);
  const config = server ? { ...settingConfig, transport: server.transport } : settingConfig;

  const cancel = new AbortController();
  const onShutdown = () => cancel.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onShutdown, { once: true });
  const unwatch = watchSuite(input.suiteRunId, cancel, db);
  try {
    // With a tool server the executor confirms this setting's flags with it before the case runs
    // (a ConfigError naming them otherwise); the flags it confirmed are stored with the run.
    // One session per (suite, setting) is reused by this worker's cases (executor-pool.ts).
    const borrowed = server ? await borrowExecutor(`${input.suiteRunId}\u0000${input.setting}\u0000${input.toolServer}`, async () => (await resolveExecutor(config, dataset, server))!) : undefined;
    const executor = borrowed?.executor;
    const confirmed = borrowed?.session instanceof McpToolExecutor ? (borrowed.session.serverWeaknesses()?.active ?? null) : null;
    const run = await withAgent({ dataset, config, executor, modelGate: options.modelGate }, (agent) => agent.run(golden.query, golden.id, { signal: cancel.signal, epoch }));
    if (cancel.signal.aborted) {
      options.signal?.throwIfAborted(); // a worker shutting down: the job is retried elsewhere
      return { stored: false, reason: 'cancelled' };
    }
    const scores = await evaluateCase(golden, run, { judge: new FakeJudge('v2'), floatKeys: dataset.floatKeys });
    const owner = { createdBy: suite.createdBy ?? '', tenant: suite.tenant };
    const base = metaFor(dataset, config, golden.category, input.suiteRunId, owner);
    const meta = { ...base, ...(server ? { config: { ...base.config, toolServer: input.toolServer, serverWeaknesses: confirmed } } : {}), createdBy: suite.createdBy, suiteRunId: input.suiteRunId };
    return await storeSuiteCase({ run, meta, setting: input.setting, caseId: golden.id, epoch, category: golden.category, scores, ...(options.lease ? { lease: options.lease } : {}) }, db);
  } catch (err) {
    if (cancel.signal.aborted && !options.signal?.aborted) return { stored: false, reason: 'cancelled' };
    throw err;
  } finally {
    unwatch();
    options.signal?.removeEventListener('abort', onShutdown);
  }
}
