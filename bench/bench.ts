/**
 * `npm run bench [-- --json] [--only NAME,NAME] [--repeat N]`: measures, never asserts. Prints each
 * figure against its target (from the issues), as medians over several repetitions.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../lib/harness/config';
import { runMatrix } from '../lib/eval/matrix';
import { loadDataset, defaultDatasetDir } from '../lib/stockroom/dataset/load-dataset';
import { SHARED_DATASET_DIR } from '../lib/stockroom/testing/shared-dataset';
import { parseArgs, stringFlag } from '../cli/args';
import { median, round, timeIt, type Figure } from './stats';


type Section = (repeat: number) => Promise<Figure[]>;

async function matrixInProcess(repeat: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [label, dir] of [
    ['stockroom-v1', SHARED_DATASET_DIR],
    ['bundled', defaultDatasetDir()],
  ] as const) {
    if (!existsSync(path.join(dir, 'catalogue.json'))) continue;
    const dataset = loadDataset(dir);
    await runMatrix({ dataset, baseConfig: resolveConfig({}) }); // warm-up: JIT, indexes, caches
    const samples: number[] = [];
    let runs = 0;
    for (let i = 0; i < repeat; i++) {
      samples.push(
        await timeIt(async () => {
          const m = await runMatrix({ dataset, baseConfig: resolveConfig({}) });
          runs = m.rows.reduce((n, r) => n + r.suite.results.length, 0);
        }),
      );
    }
    const ms = median(samples);
    figures.push({
      name: `matrix in-process (${label}, ${runs} runs, scored)`,
      value: round(ms / 1000, 3),
      unit: 's',
      target: label === 'stockroom-v1' ? '≤ 0.25 s' : undefined,
    });
    figures.push({ name: `per run (${label})`, value: round((ms / runs) * 1000, 0), unit: 'µs' });
  }
  return figures;
}

async function mcpTransports(repeat: number): Promise<Figure[]> {
  const { benchMcpMatrix } = await import('../lib/mcp/bench-mcp');
  const dir = existsSync(path.join(SHARED_DATASET_DIR, 'catalogue.json')) ? SHARED_DATASET_DIR : defaultDatasetDir();
  const figures = await benchMcpMatrix(loadDataset(dir), { repetitions: repeat });
  return figures.map((f) => ({
    name: `matrix over ${f.transport} (${f.runs} runs)`,
    value: round(f.medianMs / 1000, 3),
    unit: 's',
    target: `≤ ${f.targetMs / 1000} s`,
  }));
}

/** The MCP HTTP server's memory through a long session, 100 quiet clients and their reaping (issue 36). */
async function mcpMemory(): Promise<Figure[]> {
  const { benchMcpMemory } = await import('../lib/mcp/bench-memory');
  const dir = existsSync(path.join(SHARED_DATASET_DIR, 'catalogue.json')) ? SHARED_DATASET_DIR : defaultDatasetDir();
  return benchMcpMemory(dir);
}

/** Sections other areas contribute, loaded only when present so a partial checkout still benches. */
const OPTIONAL_SECTIONS: Record<string, { module: string; export: string }> = {
  db: { module: '../lib/db/testing/bench-db', export: 'benchDb' },
  signin: { module: './sign-in', export: 'benchSignIn' },
  models: { module: '../lib/models/bench-models', export: 'benchModels' },
  otel: { module: '../lib/otel/bench-otel', export: 'benchOtel' },
  governance: { module: '../lib/db/testing/bench-governance', export: 'benchGovernance' },
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), {
    json: { type: 'boolean', description: 'print JSON' },
    only: { type: 'string', description: 'comma-separated sections: matrix, epochs, mcp, mcpmemory, db, http, runs1m, browser, signin, models, otel, governance, jobs, firstdemo, firstdemobrowser, otlp, agenttree, deadlines, faults, approvals, notify, redaction, retention, rewrite, streaming, watch' },
    repeat: { type: 'string', description: 'repetitions per figure (default 5)' },
  });
  const repeat = Number(stringFlag(args, 'repeat') ?? '5');
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat must be a positive integer; got '${stringFlag(args, 'repeat')}'`);
  const only = stringFlag(args, 'only')?.split(',').map((s) => s.trim());
  const sections: Record<string, Section> = {
    matrix: matrixInProcess,
    epochs: async (n) => (await import('./epochs')).benchEpochs(n),
    mcp: mcpTransports,
    mcpmemory: mcpMemory,
    http: async (n) => (await import('./http-pages')).benchHttpPages(n),
    runs1m: async (n) => (await import('./http-pages')).benchHttpMillionRuns(n),
    browser: async (n) => (await import('./browser')).benchBrowser(n),
    jobs: async () => (await import('./jobs')).benchJobs(),
    firstdemo: async (n) => (await import('./first-demo')).benchFirstDemo(n),
    firstdemobrowser: async (n) => (await import('./first-demo-browser')).benchFirstDemoBrowser(n),
    otlp: async () => (await import('./otlp')).benchOtlp(),
    agenttree: async (n) => (await import('./agent-tree')).benchAgentTree(Math.min(n, 3)),
    faults: async () => (await import('./faults')).benchFaults(),
    approvals: async () => (await import('./approvals')).benchApprovals(),
    notify: async () => (await import('./notify')).benchNotify(),
    redaction: async (n) => (await import('./redaction')).benchRedaction(n),
    retention: async () => (await import('./retention')).benchRetention(),
    watch: async (n) => (await import('./watch')).benchWatch(n),
    rewrite: async () => (await import('./redaction-rewrite')).benchRedactionRewrite(),
    deadlines: async (n) => (await import('../lib/models/bench-deadlines')).benchDeadlines(Math.min(n, 3)),
    streaming: async (n) => (await import('../lib/models/bench-streaming')).benchStreaming(n),
  };
  for (const [name, { module, export: exp }] of Object.entries(OPTIONAL_SECTIONS)) {
    sections[name] = async (n) => {
      const mod = (await import(module).catch(() => null)) as Record<string, Section> | null;
      const fn = mod?.[exp];
      return fn ? fn(n) : [];
    };
  }
  const unknown = only?.filter((s) => !(s in sections)) ?? [];
  if (unknown.length) throw new Error(`--only: unknown section(s) ${unknown.join(', ')}; allowed: ${Object.keys(sections).join(', ')}`);

  const all: Record<string, Figure[]> = {};
  for (const [name, section] of Object.entries(sections)) {
    if (only && !only.includes(name)) continue;
    all[name] = await section(repeat);
    if (!args.flags.json) {
      for (const f of all[name]) {
        process.stdout.write(`${name.padEnd(7)} ${f.name.padEnd(58)} ${String(f.value).padStart(10)} ${f.unit}${f.target ? `   (target ${f.target})` : ''}${f.detail ? `  ${f.detail}` : ''}\n`);
      }
    }
  }
  if (args.flags.json) process.stdout.write(JSON.stringify({ node: process.version, cpus: (await import('node:os')).cpus().length, repeat, sections: all }, null, 2) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
