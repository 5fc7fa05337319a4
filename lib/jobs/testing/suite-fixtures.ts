/**
 * What the job tests and the bench queue: the bundled dataset, a golden file of its first `cases`
 * cases (a smaller matrix runs the same path), and a suite configuration on a live model served by
 * the offline model server (real HTTP on 127.0.0.1).
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfig, type HarnessConfig } from '../../harness';
import { loadGoldenFile, type GoldenFile } from '../../eval';
import { defaultGoldenPath } from '../../eval';
import { loadDataset } from '../../stockroom';
import type { Dataset } from '../../stockroom';

export function bundledDataset(): Dataset {
  return loadDataset(path.resolve('data'));
}

/** A golden file of the dataset's first `cases` cases, written under `dir`. */
export function goldenSubset(dataset: Dataset, cases: number, dir: string): GoldenFile {
  const lines = fs.readFileSync(defaultGoldenPath(dataset), 'utf8').split('\n').filter((l) => l.trim() !== '');
  if (cases > lines.length) throw new RangeError(`cases: the golden file has ${lines.length} cases (asked for ${cases})`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `golden-${cases}.jsonl`);
  fs.writeFileSync(file, lines.slice(0, cases).join('\n') + '\n');
  return loadGoldenFile(file);
}

/** The suite configuration for the offline model server at `baseUrl` (its `/v1` URL). */
export function liveConfig(baseUrl: string): HarnessConfig {
  return resolveConfig({ model: 'openai-compatible:stockroom-fake', modelBaseUrl: baseUrl });
}
