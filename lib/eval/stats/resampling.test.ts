/**
 * The resampling loops inline seededRandom's generator: they must draw exactly its sequence. Each is
 * compared with the plain loop written on seededRandom (the code before the generator was inlined).
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../harness';
import { clusteredBootstrap, pairedPermutationTest, quantileSorted } from './resampling';

function bootstrapOnSeededRandom(clusters: number[][], seed: string, resamples = 2000) {
  const sums = clusters.map((c) => c.reduce((a, b) => a + b, 0));
  const counts = clusters.map((c) => c.length);
  const random = seededRandom(seed);
  const stats: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < clusters.length; i += 1) {
      const j = Math.floor(random() * clusters.length);
      sum += sums[j]!;
      count += counts[j]!;
    }
    stats.push(sum / count);
  }
  stats.sort((a, b) => a - b);
  return { low: quantileSorted(stats, 0.025), high: quantileSorted(stats, 0.975) };
}

function permutationOnSeededRandom(d: number[], seed: string, resamples = 10000) {
  const observed = Math.abs(d.reduce((a, b) => a + b, 0)) - 1e-12;
  const random = seededRandom(seed);
  let extreme = 0;
  for (let r = 0; r < resamples; r += 1) {
    let s = 0;
    for (const x of d) s += random() < 0.5 ? -x : x;
    if (Math.abs(s) >= observed) extreme += 1;
  }
  return (extreme + 1) / (resamples + 1);
}

describe('resampling draws seededRandom’s sequence', () => {
  const random = seededRandom('fixture');
  const clusters = Array.from({ length: 61 }, (_, i) => Array.from({ length: 1 + (i % 5) }, () => Math.round(random() * 3000)));
  const diffs = Array.from({ length: 40 }, () => Math.round((random() - 0.4) * 10));

  it('gives the clustered bootstrap’s interval exactly, for unequal clusters and several seeds', () => {
    for (const seed of ['a', 'intervals:none:mean_input_tokens', 'deltas:naive_retry:tool_selection_accuracy']) expect(clusteredBootstrap(clusters, seed)).toEqual(bootstrapOnSeededRandom(clusters, seed));
  });

  it('gives the permutation test’s p exactly beyond the exact enumeration', () => {
    expect(diffs.filter((x) => x !== 0).length).toBeGreaterThan(16);
    for (const seed of ['a', 'b']) expect(pairedPermutationTest(diffs, seed)).toBe(permutationOnSeededRandom(diffs.filter((x) => x !== 0), seed));
  });
});
