/**
 * Hold-out honesty: product code never branches on a golden case id or a golden query. Only the
 * datasets' own mock scripts (data files) may be keyed by case id.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSharedDataset, SHARED_DATASET_DIR } from './stockroom/testing/shared-dataset';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE_DIRS = ['lib', 'app', 'components', 'cli', 'scripts', 'bench'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'testing' || e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function goldenQueries(): string[] {
  const dirs = [path.join(ROOT, 'data/golden'), ...(hasSharedDataset ? [path.join(SHARED_DATASET_DIR, 'golden')] : [])];
  return dirs.flatMap((d) =>
    fs
      .readdirSync(d)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => fs.readFileSync(path.join(d, f), 'utf8').split('\n').filter(Boolean))
      .map((line) => (JSON.parse(line) as { query: string }).query),
  );
}

describe('hold-out honesty', () => {
  const files = SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)));

  it('finds product source files to check', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('never names a golden case id in product code', () => {
    const offenders = files.filter((f) => /['"`][GS]\d{3}['"`]/.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('never contains a golden query verbatim in product code', () => {
    const queries = goldenQueries().filter((q) => q.length >= 12);
    expect(queries.length).toBeGreaterThan(50);
    const offenders: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const q of queries) if (text.includes(q)) offenders.push(`${path.relative(ROOT, f)}: ${q}`);
    }
    expect(offenders).toEqual([]);
  });
});
