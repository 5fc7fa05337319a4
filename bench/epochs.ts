/**
 * Issue 35: the matrix with `--epochs 5` on the noisy fake model, in-process, on the bundled dataset
 * (5 settings × its cases × 5 epochs, scored, with intervals and paired deltas).
 */
import { resolveConfig } from '../lib/harness/config';
import { runMatrix } from '../lib/eval/matrix';
import { loadDataset, defaultDatasetDir } from '../lib/stockroom/dataset/load-dataset';
import { runPointsOf } from '../lib/eval/interval-metrics';
import { suiteIntervals } from '../lib/eval/intervals';
import { pairedDeltas } from '../lib/eval/paired-deltas';
import { MATRIX_TABLE_METRICS } from '../lib/eval/matrix-table';
import { median, round, timeIt, type Figure } from './stats';

const EPOCHS = 5;

export async function benchEpochs(repeat: number): Promise<Figure[]> {
  const dataset = loadDataset(defaultDatasetDir());
  const baseConfig = resolveConfig({ model: 'fake-noisy', seed: 1 });
  const warm = await runMatrix({ dataset, baseConfig, epochs: EPOCHS }); // warm-up: JIT, indexes, caches
  // The statistics alone (intervals of five settings, 24 paired cells), on the warm-up's runs.
  const points = Object.fromEntries(warm.rows.map((r) => [r.setting, runPointsOf(r.suite.results)]));
  const statSamples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    statSamples.push(
      await timeIt(async () => {
        for (const p of Object.values(points)) suiteIntervals(p, { epochs: EPOCHS, deterministic: false });
        pairedDeltas(points, 'none', { epochs: EPOCHS, deterministic: false, metrics: MATRIX_TABLE_METRICS });
      }),
    );
  }
  const samples: number[] = [];
  let runs = 0;
  for (let i = 0; i < repeat; i++) {
    samples.push(
      await timeIt(async () => {
        const m = await runMatrix({ dataset, baseConfig, epochs: EPOCHS });
        runs = m.rows.reduce((n, r) => n + r.suite.results.length, 0);
      }),
    );
  }
  const ms = median(samples);
  return [
    { name: `matrix --epochs ${EPOCHS} on fake-noisy (bundled, ${runs} runs, scored, intervals + paired deltas)`, value: round(ms / 1000, 3), unit: 's', target: '≤ 2 s' },
    { name: `per run (epochs ${EPOCHS}, fake-noisy)`, value: round((ms / runs) * 1000, 0), unit: 'µs' },
    { name: `of which the statistics (intervals of 5 settings + 24 paired cells)`, value: round(median(statSamples), 1), unit: 'ms' },
  ];
}
