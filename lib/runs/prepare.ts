/**
 * The first step of every single run (from the run form, a queued job, a replay): everything that
 * can refuse it — the dataset of the caller's tenant, the golden case, the model's credentials, the
 * tool server — checked before anything is stored, and the record it will be stored with.
 */
import type { HarnessConfig } from '../harness';
import type { GoldenCase } from '../eval';
import type { Dataset } from '../stockroom';
import { newId } from '../db/core';
import type { RunOneInput } from '../schemas/run-settings';
import { goldenCaseOf, resolveDataset } from './datasets';
import { configWithServer, type toolServerOptions } from './settings';
import { metaFor } from './store';

/** Who starts a run: the user it is attributed to and the tenant they work in. */
export interface RunCaller {
  id: string;
  tenant: string;
}

/** A run checked against everything that can refuse it, with its stored id. */
export interface PreparedRun {
  dataset: Dataset;
  golden: GoldenCase | null;
  query: string;
  server: ReturnType<typeof toolServerOptions> | undefined;
  config: HarnessConfig;
  meta: ReturnType<typeof metaFor> & { id: string };
}

/** Checks a run request and names its record (a fresh id, or the one a queued run already has). */
export function prepareRun(input: RunOneInput, caller: RunCaller, id: string = newId()): PreparedRun {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  // A configured tool server decides the transport; the stored run names the server it used.
  const { config, server } = configWithServer(input, input.weaknesses, tenant);
  const base = metaFor(dataset, config, golden?.category ?? null, null, { createdBy: caller.id, tenant });
  const meta = { ...(input.toolServer ? { ...base, config: { ...base.config, toolServer: input.toolServer } } : base), id, tags: input.tags };
  return { dataset, golden, query: golden ? golden.query : input.query!, server, config, meta };
}
