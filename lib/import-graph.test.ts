/**
 * The floor plan of lib/, checked on the real import graph (dependency-cruiser, type-only imports
 * included): no circle anywhere in lib/, cli/, bench/, app/ or components/, and no import from a
 * lib/ folder to one on a higher floor. Test files may compose higher floors (a harness test runs
 * the Stockroom dataset); everything else, `testing/` helpers included, keeps to the plan.
 *
 * A new lib/ folder must be given its floor here; a lower floor that seems to need a higher one
 * gets it handed in through a small interface (as the loop gets its model and clock, or the run
 * service its queue, lib/runs/queue-port.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/** lib/ folders, lowest floor first: a folder may import only folders before it. */
export const FLOORS = [
  'harness', // the loop; knows nothing of Next.js, storage, providers or Stockroom
  'security', // secret redaction, headers, nonces
  'format', // numbers, costs and times for display
  'governance', // policy, approvals, journal, evidence
  'stockroom', // the environment: dataset, tools, ledger, the agent
  'eval', // golden cases, metrics, judge, matrix, gate
  'models', // live providers, recording, replay, the model judge
  'mcp', // MCP servers and the MCP tool executor
  'db', // Prisma: the only code that touches the database
  'schemas', // zod schemas of what callers send
  'auth', // sessions, roles, users
  'otel', // trace export and import
  'transfer', // run files
  'charts', // pure shaping of data for pages
  'notify', // outgoing webhooks: events, signatures, delivery attempts
  'runs', // the run service: prepare → execute → store, every way a run starts
  'jobs', // the job queue and workers, calling the run service
  'boundary', // the one wrapper of actions and routes: auth, parse, error policy
  'actions', // 'use server' files only
] as const;

/** Non-test lines at most in each file of lib/actions (a thin wrapper: schema, role, one call). */
const MAX_ACTION_LINES = 60;
/** Lines at most in the loop's orchestration file (each state's work lives beside it). */
const MAX_LOOP_LINES = 200;

interface Edge {
  from: string;
  to: string;
  circular: boolean;
}

const isTest = (p: string) => /\.test\.tsx?$/.test(p);
const folderOf = (p: string) => /^lib\/([^/]+)\//.exec(p)?.[1] ?? null;

let edges: Edge[] = [];
let modules: string[] = [];

beforeAll(async () => {
  const { cruise } = await import('dependency-cruiser');
  const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  const result = await cruise(
    ['lib', 'cli', 'bench', 'app', 'components'],
    { tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, exclude: { path: ['node_modules', 'lib/db/generated'] } },
    undefined,
    { tsConfig: extractTSConfig('tsconfig.json') },
  );
  const output = result.output as { modules: { source: string; dependencies: { resolved: string; circular: boolean; coreModule: boolean }[] }[] };
  modules = output.modules.map((m) => m.source);
  edges = output.modules.flatMap((m) => m.dependencies.filter((d) => !d.coreModule).map((d) => ({ from: m.source, to: d.resolved, circular: d.circular })));
}, 120_000);

describe('the import graph', () => {
  it('read the code it checks', () => {
    expect(modules).toContain('lib/harness/loop/run.ts');
    expect(modules).toContain('lib/runs/prepare.ts');
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('has no circle', () => {
    expect(edges.filter((e) => e.circular).map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('gives every lib/ folder a floor', () => {
    const folders = new Set(modules.map(folderOf).filter((f): f is string => f !== null));
    expect([...folders].filter((f) => !(FLOORS as readonly string[]).includes(f))).toEqual([]);
  });

  it('has no import from a lib/ folder to a higher floor', () => {
    const floor = (f: string) => (FLOORS as readonly string[]).indexOf(f);
    const upward = edges.filter((e) => {
      const a = folderOf(e.from);
      const b = folderOf(e.to);
      return a !== null && b !== null && a !== b && !isTest(e.from) && floor(a) < floor(b);
    });
    expect(upward.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('keeps lib/harness free of Next.js, the database and provider SDKs', () => {
    const foreign = edges.filter((e) => e.from.startsWith('lib/harness/') && !isTest(e.from) && /node_modules\/(next|@prisma|openai|@anthropic-ai|@aws-sdk)\//.test(e.to));
    expect(foreign.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });
});

describe('thin layers', () => {
  const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').length;

  it(`keeps lib/actions to 'use server' files of at most ${MAX_ACTION_LINES} lines`, () => {
    const files = fs.readdirSync('lib/actions').filter((f) => f.endsWith('.ts') && !isTest(f));
    expect(files.length).toBeGreaterThan(10);
    const off = files.filter((f) => {
      const text = fs.readFileSync(path.join('lib/actions', f), 'utf8');
      return !text.startsWith("'use server';") || lines(path.join('lib/actions', f)) > MAX_ACTION_LINES;
    });
    expect(off).toEqual([]);
  });

  it(`keeps the loop's orchestration file to ${MAX_LOOP_LINES} lines`, () => {
    expect(lines('lib/harness/loop/run.ts')).toBeLessThanOrEqual(MAX_LOOP_LINES);
  });
});
