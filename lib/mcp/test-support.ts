/** Shared by the MCP tests: where the reference dataset lives and whether it is there. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './shared';

/** The read-only reference dataset beside the repository. */
// Test support, not configuration: where the MCP tests find the shared dataset.
export const SHARED_DATASET_DIR = process.env.STOCKROOM_SHARED_DIR ?? path.resolve(REPO_ROOT, '../shared/stockroom-v1');
export const hasShared = existsSync(path.join(SHARED_DATASET_DIR, 'catalogue.json'));

/** The repository's own dataset. */
export const OWN_DATASET_DIR = path.resolve(REPO_ROOT, 'data');
export const hasOwn = existsSync(path.join(OWN_DATASET_DIR, 'catalogue.json'));

export function warnIfMissing(): void {
  if (!hasShared) console.warn(`skipping MCP tests on the reference dataset: ${SHARED_DATASET_DIR} is absent`);
}
