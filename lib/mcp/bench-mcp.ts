/**
 * The MCP part of `npm run bench`: the whole weakness matrix (5 settings × the golden set, 250 runs
 * on the reference dataset) over each MCP transport, in process, median of several repetitions.
 * Each repetition includes connecting (for stdio, spawning one child per setting), as a user pays it.
 */
import { resolveConfig, type Transport } from '../harness';
import { runMatrix } from '../eval';
import type { Dataset } from '../stockroom';
import { createExecutor } from './client';

/** The MCP transports benchmarked, with the wall-clock target for one matrix. */
export const MCP_BENCH_TARGETS_MS: Readonly<Record<Exclude<Transport, 'local'>, number>> = {
  'mcp-memory': 1_000,
  'mcp-stdio': 3_000,
  'mcp-http': 5_000,
};

/** Repetitions per transport when none is given; the median is reported. */
export const DEFAULT_MCP_BENCH_REPETITIONS = 5;

export interface McpBenchFigure {
  transport: Exclude<Transport, 'local'>;
  runs: number;
  medianMs: number;
  samplesMs: number[];
  targetMs: number;
  withinTarget: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Times the matrix over mcp-memory, mcp-stdio and mcp-http; prints nothing (the caller does). */
export async function benchMcpMatrix(
  dataset: Dataset,
  options: { repetitions?: number; goldenPath?: string } = {},
): Promise<McpBenchFigure[]> {
  const repetitions = options.repetitions ?? DEFAULT_MCP_BENCH_REPETITIONS;
  const figures: McpBenchFigure[] = [];
  for (const [transport, targetMs] of Object.entries(MCP_BENCH_TARGETS_MS) as [McpBenchFigure['transport'], number][]) {
    const samplesMs: number[] = [];
    let runs = 0;
    // One untimed warm-up: module loading and the stdio bundle build are one-off costs.
    for (let i = 0; i <= repetitions; i++) {
      const started = performance.now();
      const matrix = await runMatrix({
        dataset,
        goldenPath: options.goldenPath,
        baseConfig: resolveConfig({ transport }),
        createExecutor: (config) => createExecutor({ transport, dataset, weaknesses: config.weaknesses }),
      });
      const elapsed = performance.now() - started;
      if (i === 0) continue;
      samplesMs.push(Math.round(elapsed));
      runs = matrix.rows.reduce((n, row) => n + row.suite.results.length, 0);
    }
    const medianMs = median(samplesMs);
    figures.push({ transport, runs, medianMs, samplesMs, targetMs, withinTarget: medianMs <= targetMs });
  }
  return figures;
}

/** One line per transport, for the bench program's output. */
export function formatMcpBench(figures: readonly McpBenchFigure[]): string {
  return figures
    .map(
      (f) =>
        `matrix over ${f.transport.padEnd(10)} ${String(f.runs).padStart(4)} runs  median ${String(f.medianMs).padStart(6)} ms  ` +
        `(target ≤ ${f.targetMs} ms: ${f.withinTarget ? 'ok' : 'OVER'})  samples ${f.samplesMs.join(', ')}`,
    )
    .join('\n');
}
