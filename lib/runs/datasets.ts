import 'server-only';
/**
 * The datasets the dashboard may use, resolved on the server from their ids (see
 * lib/schemas/datasets.ts). Loading is memoised by lib/stockroom, so these are cheap after the first call.
 *
 * Every dataset belongs to one tenant: the deployment's STOCKROOM_DATASET_TENANTS assignment, else
 * what the dataset declares in `tenant.json` at its root, else the default tenant (the bundled
 * `data/` is `kittiwake`). A caller sees and runs only its own tenant's datasets; another tenant's
 * id is answered like an unknown one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { safeJsonParse } from '../harness';
import { DEFAULT_TENANT } from '../governance';
import { defaultGoldenPath } from '../eval';
import { loadGoldenFile, type GoldenCase, type GoldenFile } from '../eval';
import { defaultDatasetDir, loadDataset } from '../stockroom';
import type { Dataset } from '../stockroom';
import { datasetAllowList, DatasetTenantFileSchema, parseDatasetTenants, type DatasetEntry } from '../schemas/datasets';
import { InputError } from './errors';

/** An allowed dataset and the tenant it belongs to. */
export interface TenantDatasetEntry extends DatasetEntry {
  tenant: string;
}

/** The tenant a dataset directory declares in its `tenant.json`, or null; throws naming the file when it is invalid. */
export function declaredTenant(dir: string): string | null {
  const file = path.join(dir, 'tenant.json');
  let text: string;
  try {
    text = fs.readFileSync(/* turbopackIgnore: true */ file, 'utf8');
  } catch {
    return null;
  }
  const json = safeJsonParse(text);
  const parsed = json.ok ? DatasetTenantFileSchema.safeParse(json.value) : null;
  if (!parsed?.success) throw new Error(`${file}: expected {"tenant": "<tenant>"}${parsed ? ` (${parsed.error.issues[0]?.message})` : ''}`);
  return parsed.data.tenant;
}

/** The tenant of dataset `id` in `dir`: the deployment's assignment, the dataset's declaration, or the default tenant. */
export function datasetTenant(id: string, dir: string, assignments: Map<string, string> = parseDatasetTenants(process.env.STOCKROOM_DATASET_TENANTS)): string {
  return assignments.get(id) ?? declaredTenant(dir) ?? DEFAULT_TENANT;
}

/**
 * The allow-list from the environment with each dataset's tenant (read per call: cheap, and tests
 * may change it); only `tenant`'s datasets when one is given.
 */
export function allowedDatasets(tenant?: string): TenantDatasetEntry[] {
  const assignments = parseDatasetTenants(process.env.STOCKROOM_DATASET_TENANTS);
  const all = datasetAllowList(defaultDatasetDir(), process.env.STOCKROOM_EXTRA_DATASETS).map((e) => ({ ...e, tenant: datasetTenant(e.id, e.dir, assignments) }));
  return tenant === undefined ? all : all.filter((e) => e.tenant === tenant);
}

/** A loaded dataset and the tenant it belongs to. */
export interface TenantDataset {
  dataset: Dataset;
  tenant: string;
}

/**
 * The dataset behind an id, when it belongs to `tenant`; InputError on `datasetId` when the id is not
 * on the allow-list or is another tenant's (the same message: another tenant's dataset does not exist here).
 */
export function resolveDataset(id: string, tenant: string): TenantDataset {
  const entry = allowedDatasets(tenant).find((e) => e.id === id);
  if (!entry) throw new InputError('datasetId', `Unknown dataset '${id}'.`);
  return { dataset: loadDataset(entry.dir), tenant: entry.tenant };
}

const goldenCache = new Map<string, GoldenFile>();

/** The dataset's golden file (its first), memoised by path and content hash of the dataset. */
export function goldenOf(dataset: Dataset): GoldenFile {
  const path = defaultGoldenPath(dataset);
  const key = `${path}:${dataset.hash}`;
  let golden = goldenCache.get(key);
  if (!golden) {
    golden = loadGoldenFile(path);
    goldenCache.set(key, golden);
  }
  return golden;
}

/** A golden case of the dataset; InputError on `caseId` when it has none by that id. */
export function goldenCaseOf(dataset: Dataset, caseId: string): GoldenCase {
  const found = goldenOf(dataset).cases.find((c) => c.id === caseId);
  if (!found) throw new InputError('caseId', `The dataset has no golden case '${caseId}'.`);
  return found;
}

/**
 * The golden case a stored run came from: case `caseId` of `tenant`'s dataset that has the run's name
 * and content hash (null when the run came from no case, or the dataset changed or is not `tenant`'s).
 */
export function goldenCaseOfRun(tenant: string, run: { caseId: string | null; datasetName: string; datasetHash: string }): GoldenCase | null {
  if (!run.caseId) return null;
  for (const entry of allowedDatasets(tenant)) {
    try {
      const dataset = loadDataset(entry.dir);
      if (dataset.name !== run.datasetName || dataset.hash !== run.datasetHash) continue;
      return goldenOf(dataset).cases.find((c) => c.id === run.caseId) ?? null;
    } catch {
      // A dataset that does not load is no run's source.
    }
  }
  return null;
}

/** A dataset as the UI lists it. */
export interface DatasetOption {
  id: string;
  /** The dataset's own name (what stored runs record). */
  name: string;
  /** Null when it loaded; otherwise why it cannot be used. */
  problem: string | null;
  cases: Array<{ id: string; category: string; query: string }>;
  categories: string[];
}

/** Every allowed dataset of `tenant` with its golden cases (a broken one is listed with its problem). */
export function datasetOptions(tenant: string): DatasetOption[] {
  return allowedDatasets(tenant).map((entry) => {
    try {
      const dataset = loadDataset(entry.dir);
      const cases = goldenOf(dataset).cases.map((c) => ({ id: c.id, category: c.category, query: c.query }));
      return { id: entry.id, name: dataset.name, problem: null, cases, categories: [...new Set(cases.map((c) => c.category))].sort() };
    } catch (err) {
      return { id: entry.id, name: entry.id, problem: err instanceof Error ? err.message : 'cannot be loaded', cases: [], categories: [] };
    }
  });
}
