/**
 * Where a suite's cases come from: a golden file on disk, or a stored golden set's version named by
 * its address (`golden-set://tenant/name@version`, lib/eval/golden-sets.ts). Suites, their jobs and
 * the CLI load both the same way; a stored version never changes, so it is parsed once per process.
 */
import { loadGoldenFile, type GoldenFile } from '../eval';
import { parseGoldenSetRef } from '../eval';
import { getGoldenSetOrThrow } from '../db/review';
import type { Database } from '../db/core';

const stored = new Map<string, GoldenFile>();

/** The golden file at `path`, or the stored set version it addresses. */
export async function loadGoldenSource(path: string, db?: Database): Promise<GoldenFile> {
  const ref = parseGoldenSetRef(path);
  if (!ref) return loadGoldenFile(path);
  const hit = stored.get(path);
  if (hit) return hit;
  const golden = await getGoldenSetOrThrow(ref.tenant, ref.name, ref.version, db);
  stored.set(path, golden);
  return golden;
}
