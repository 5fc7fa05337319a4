import 'server-only';
/**
 * The datasets the dashboard may use, resolved on the server from their ids (see
 * lib/schemas/datasets.ts). Loading is memoised by lib/stockroom, so these are cheap after the first call.
 */
import { defaultGoldenPath } from '../../eval/matrix';
import { loadGoldenFile, type GoldenCase, type GoldenFile } from '../../eval/golden';
import { defaultDatasetDir, loadDataset } from '../../stockroom/dataset/load-dataset';
import type { Dataset } from '../../stockroom/dataset/types';
import { datasetAllowList, type DatasetEntry } from '../../schemas/datasets';
import { InputError } from '../errors';

/** The allow-list from the environment (read per call: cheap, and tests may change it). */
export function allowedDatasets(): DatasetEntry[] {
  return datasetAllowList(defaultDatasetDir(), process.env.STOCKROOM_EXTRA_DATASETS);
}

/** The dataset behind an id; InputError on `datasetId` when the id is not on the allow-list. */
export function resolveDataset(id: string): Dataset {
  const entry = allowedDatasets().find((e) => e.id === id);
  if (!entry) throw new InputError('datasetId', `Unknown dataset '${id}'.`);
  return loadDataset(entry.dir);
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

/** Every allowed dataset with its golden cases (a broken one is listed with its problem). */
export function datasetOptions(): DatasetOption[] {
  return allowedDatasets().map((entry) => {
    try {
      const dataset = loadDataset(entry.dir);
      const cases = goldenOf(dataset).cases.map((c) => ({ id: c.id, category: c.category, query: c.query }));
      return { id: entry.id, name: dataset.name, problem: null, cases, categories: [...new Set(cases.map((c) => c.category))].sort() };
    } catch (err) {
      return { id: entry.id, name: entry.id, problem: err instanceof Error ? err.message : 'cannot be loaded', cases: [], categories: [] };
    }
  });
}
