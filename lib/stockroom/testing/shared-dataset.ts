/**
 * Where tests find the shared reference dataset (never copied into the repository). Tests that
 * need it use `describe.skipIf(!hasSharedDataset)` and say why they skipped.
 */
import fs from 'node:fs';
import path from 'node:path';

/** `STOCKROOM_SHARED_DATASET`, else `../shared/stockroom-v1` beside the working directory. */
export const SHARED_DATASET_DIR: string = process.env.STOCKROOM_SHARED_DATASET
  ? path.resolve(process.env.STOCKROOM_SHARED_DATASET)
  : path.resolve(process.cwd(), '../shared/stockroom-v1');

/** True when the shared dataset is present (its catalogue exists). */
export const hasSharedDataset: boolean = fs.existsSync(path.join(SHARED_DATASET_DIR, 'catalogue.json'));

/** The message a skipped suite prints. */
export const SHARED_DATASET_SKIP_MESSAGE = `shared Stockroom dataset not found at ${SHARED_DATASET_DIR} (set STOCKROOM_SHARED_DATASET); skipping tests that need it`;

/** Warns once per suite when the shared dataset is absent; returns `hasSharedDataset`. */
export function warnIfNoSharedDataset(): boolean {
  if (!hasSharedDataset) console.warn(SHARED_DATASET_SKIP_MESSAGE);
  return hasSharedDataset;
}
