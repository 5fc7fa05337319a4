/**
 * The floor plan of lib/, checked on the real import graph (dependency-cruiser, type-only imports
 * included): no circle anywhere in lib/, cli/, bench/, app/ or components/, and no import from a
 * lib/ folder to one on a higher floor; each doored library entered only through its door, nothing in
 * lib/ importing app/, no browser door reaching Node or server-only code (the rules: ./import-rules.ts,
 * each caught on a planted violation in ./import-rules.test.ts). Test files may compose higher floors (a harness test runs
 * the Stockroom dataset); everything else, `testing/` helpers included, keeps to the plan.
 *
 * A new lib/ folder must be given its floor here; a lower floor that seems to need a higher one
 * gets it handed in through a small interface (as the loop gets its model and clock, or the run
 * service its queue, lib/runs/queue-port.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserDoorLeaks, circles, cruiseImports, deepImports, isTest, libraryOf, libToApp, reachedFrom, upwardImports, wildcardDoors, type ImportEdge } from './import-rules';

/** lib/ folders, lowest floor first: a folder may import only folders before it. */
export const FLOORS = [
  'harness', // the loop; knows nothing of Next.js, storage, providers or Stockroom
  'security', // secret redaction, headers, nonces
  'format', // numbers, costs and times for display
  'governance', // policy, approvals, journal, evidence
  'stockroom', // the environment: dataset, tools, ledger, the agent, the weakness table
  'eval', // golden cases, metrics, judge, matrix, gate
  'models', // live providers, recording, replay, the model judge
  'mcp/shared', // what the MCP server and client both speak: private keys, the lookup tool, paths
  'mcp/server', // the Stockroom MCP server, its transports, the write gate
  'mcp/client', // the MCP tool executor, its connections (which may start a server), OAuth
  'mcp', // lib/mcp's door over the three, and the MCP benchmarks
  'db/core', // Prisma: the only code that touches the database; the client, errors, ids, blobs, job lease
  'db/auth', // users, sign-in throttle, MCP OAuth credentials and tool server listings, webhooks
  'db/governance', // approvals, evidence, journal, redaction of stored content, erasure, tenant scoping
  'db/runs', // stored runs: written redacted with their evidence, read, listed, searched
  'db/traces', // imported OTLP traces built into runs; the retention schedule
  'db/suites', // suites and matrices: case jobs, status, statistics
  'db/review', // labels, judge, golden sets, evaluators and scores, rollup, alerts
  'db', // lib/db's testing/ helpers and bench seeders over the areas (and the generated clients)
  'schemas', // zod schemas of what callers send
  'auth', // sessions, roles, users
  'otel', // trace export and import
  'transfer', // run files
  'charts', // pure shaping of data for pages
  'notify', // outgoing webhooks: events, signatures, delivery attempts
  'watch', // online evaluators, the hourly rollup and alerts on finished runs
  'runs', // the run service: prepare → execute → store, every way a run starts
  'jobs', // the job queue and workers, calling the run service
  'startup', // the environment, read once when the web server, a worker or the CLI starts
  'boundary', // the one wrapper of actions and routes: auth, parse, error policy
  'actions', // 'use server' files only
] as const;

/**
 * Libraries entered only through a door (`index.ts`, or `browser.ts` from code a client component
 * reaches): the libraries below the database, and each area of lib/db (one area reaches another, and
 * lib/ code reaches lib/db, only through the area's index.ts; lib/db/testing/ is a door for tests and
 * benches). The service floors above it (schemas … boundary) are entered deep for now.
 */
export const DOORED = ['harness', 'security', 'format', 'governance', 'stockroom', 'eval', 'models', 'mcp/shared', 'mcp/server', 'mcp/client', 'mcp', 'db/core', 'db/auth', 'db/governance', 'db/runs', 'db/traces', 'db/suites', 'db/review', 'otel'] as const;

/**
 * May import deep (ARCHITECTURE.md, "Doors"): app code, which composes the libraries; and lib/startup,
 * imported only by the entry points, which takes each area's environment parser alone so that every
 * CLI start does not load whole libraries.
 */
export const DEEP_ALLOWED = ['actions', 'startup'] as const;

/** Lines at most in each file of lib/actions (a thin wrapper: schema, role, one call). */
const MAX_ACTION_LINES = 60;
/** Lines at most in the loop's orchestration file (each state's work lives beside it). */
const MAX_LOOP_LINES = 200;

let edges: ImportEdge[] = [];
let modules: string[] = [];

beforeAll(async () => {
  const graph = await cruiseImports(['lib', 'cli', 'bench', 'app', 'components']);
  modules = graph.modules;
  edges = graph.edges;
}, 120_000);

describe('the import graph', () => {
  it('read the code it checks', () => {
    expect(modules).toContain('lib/harness/loop/run.ts');
    expect(modules).toContain('lib/runs/prepare.ts');
    expect(edges.filter((e) => !e.coreModule).length).toBeGreaterThan(1000);
  });

  it('has no circle', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('gives every lib/ folder a floor', () => {
    const folders = new Set(modules.map(libraryOf).filter((f): f is string => f !== null));
    expect([...folders].filter((f) => !(FLOORS as readonly string[]).includes(f))).toEqual([]);
  });

  it('has no import from a lib/ folder to a higher floor', () => {
    expect(upwardImports(edges, FLOORS)).toEqual([]);
  });

  it('enters each doored library only through its door', () => {
    for (const lib of DOORED) expect(fs.existsSync(`lib/${lib}/index.ts`), `lib/${lib}/index.ts`).toBe(true);
    expect(deepImports(edges, DOORED, DEEP_ALLOWED)).toEqual([]);
  });

  it('has no import from lib/ of app/ or components/', () => {
    expect(libToApp(edges)).toEqual([]);
  });

  it('keeps every browser.ts door free of Node built-ins and server-only modules', () => {
    expect(modules.filter((m) => /^lib\/[^/]+\/browser\.ts$/.test(m)).length).toBeGreaterThan(0);
    expect(browserDoorLeaks(edges)).toEqual([]);
  });

  it("loads no zod through the harness's browser door, its names or the label keys (the replay page's client bundle evaluated zod for them, issue 31)", () => {
    const zod = /node_modules\/zod\//;
    for (const start of ['lib/harness/browser.ts', 'lib/harness/names.ts', 'lib/eval/label-keys.ts']) expect([...reachedFrom(edges, start)].filter((m) => zod.test(m)), start).toEqual([]);
    expect([...reachedFrom(edges, 'lib/harness/guardrails/index.ts')].some((m) => zod.test(m))).toBe(true);
  });

  it("loads no provider SDK through the models library's main door (the live door, models/live, is imported lazily)", () => {
    const sdk = /node_modules\/(openai|@anthropic-ai|@aws-sdk)\//;
    expect([...reachedFrom(edges, 'lib/models/index.ts')].filter((m) => sdk.test(m))).toEqual([]);
    expect([...reachedFrom(edges, 'lib/models/live/index.ts')].some((m) => sdk.test(m))).toBe(true);
  });

  it('names what each door exports (no export *)', () => {
    const doors = new Map(modules.filter((m) => m.startsWith('lib/') && /\/(index|browser)\.tsx?$/.test(m)).map((m) => [m, fs.readFileSync(m, 'utf8')]));
    expect(doors.size).toBeGreaterThanOrEqual(DOORED.length);
    expect(wildcardDoors(doors)).toEqual([]);
  });

  it('keeps lib/harness free of Next.js, the database and provider SDKs', () => {
    const foreign = edges.filter((e) => e.from.startsWith('lib/harness/') && !isTest(e.from) && /node_modules\/(next|@prisma|openai|@anthropic-ai|@aws-sdk)\//.test(e.to));
    expect(foreign.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("keeps the course out of lib/harness: no file but the configuration's flag list (names.ts) names a weakness flag", async () => {
    const { WEAKNESS_FLAGS } = await import('./harness/names');
    const named = modules
      .filter((m) => m.startsWith('lib/harness/') && !isTest(m) && m !== 'lib/harness/names.ts')
      .filter((m) => WEAKNESS_FLAGS.some((flag) => fs.readFileSync(m, 'utf8').includes(`'${flag}'`)));
    expect(named).toEqual([]);
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
