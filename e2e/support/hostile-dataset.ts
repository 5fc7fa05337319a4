/**
 * A copy of the bundled dataset whose first product's name carries markup, so tool output itself
 * (not only the user's query) brings `<script>` and `<img onerror>` into the dashboard. Written to a
 * temporary folder and offered to the server through STOCKROOM_EXTRA_DATASETS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const HOSTILE_MARKUP = '<img src=x onerror=alert(1)> <script>alert(1)</script>';
export const HOSTILE_FOLDER = 'hostile-dataset';
/** The dataset id the dashboard gives the folder (see lib/schemas/datasets.ts). */
export const HOSTILE_DATASET_ID = `extra-${HOSTILE_FOLDER}`;

export function writeHostileDataset(root = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-e2e-'))): string {
  const dir = path.join(root, HOSTILE_FOLDER);
  fs.cpSync(path.resolve(import.meta.dirname, '../../data'), dir, { recursive: true });
  const catalogue = path.join(dir, 'catalogue.json');
  const text = fs.readFileSync(catalogue, 'utf8');
  const first = /"name": "([^"]*)"/.exec(text);
  if (!first) throw new Error('the bundled catalogue has no product name to make hostile');
  // A text edit keeps the file's float spellings (28.0) exactly as they are.
  fs.writeFileSync(catalogue, text.replace(first[0], `"name": "${first[1]} ${HOSTILE_MARKUP}"`));
  const descriptions = path.join(dir, 'agent/tool_descriptions.json');
  const tools = JSON.parse(fs.readFileSync(descriptions, 'utf8')) as { version?: string };
  fs.writeFileSync(descriptions, JSON.stringify({ ...tools, version: 'hostile-fixture' }, null, 2));
  return dir;
}
