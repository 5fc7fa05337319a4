/**
 * The import check's rules, each caught planting one violation in a small tree cruised by the same
 * dependency-cruiser call the project's check uses (lib/import-graph.test.ts), beside imports that keep
 * to the plan and must pass.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserDoorLeaks, circles, cruiseImports, deepImports, libraryOf, libToApp, upwardImports, wildcardDoors, type ImportGraph } from './import-rules';

const FLOORS = ['harness', 'mcp/server', 'mcp/client', 'eval', 'db/core', 'db/runs', 'db', 'jobs', 'actions'];
const DOORED = ['harness', 'mcp/server', 'mcp/client', 'eval', 'db/core', 'db/runs'];

/** The planted tree: each file's text. */
const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', paths: { '@/*': ['./*'] } } }),
  'lib/harness/index.ts': "export { runLoop } from './loop/run';\n",
  'lib/harness/loop/run.ts': 'export const runLoop = () => 1;\n',
  'lib/harness/text.ts': 'export const words = (s: string) => s.split(" ");\n',
  'lib/harness/browser.ts': "export { words } from './text';\nexport { readIt } from './disk';\nexport { secret } from './secret';\n",
  'lib/harness/secret.ts': "import 'server-only';\nexport const secret = 1;\n",
  'node_modules/server-only/package.json': JSON.stringify({ name: 'server-only', version: '0.0.1', main: 'index.js' }),
  'node_modules/server-only/index.js': 'module.exports = {};\n',
  'lib/harness/disk.ts': "import fs from 'node:fs';\nexport const readIt = (p: string) => fs.readFileSync(p, 'utf8');\n",
  // A violation of each rule, one file each:
  'lib/eval/deep.ts': "import { runLoop } from '../harness/loop/run';\nexport const deep = runLoop;\n",
  'lib/harness/upward.ts': "import { fine } from '../eval';\nexport const up = fine;\n",
  'lib/eval/to-app.ts': "import { GET } from '../../app/api/thing/route';\nexport const get = GET;\n",
  'lib/eval/ring-a.ts': "import { b } from './ring-b';\nexport const a = () => b();\n",
  'lib/eval/ring-b.ts': "import { a } from './ring-a';\nexport const b = (): number => a();\n",
  'lib/eval/index.ts': "export * from './fine';\n",
  // lib/mcp's server and client are libraries of their own: the client enters the server by its door,
  // the server never imports the client.
  'lib/mcp/server/index.ts': "export { serve } from './serve';\n",
  'lib/mcp/server/serve.ts': 'export const serve = () => 2;\n',
  'lib/mcp/server/calls-client.ts': "import { connect } from '../client';\nexport const back = connect;\n",
  'lib/mcp/client/index.ts': "export { connect } from './connect';\n",
  'lib/mcp/client/deep.ts': "import { serve } from '../server/serve';\nexport const deep = serve;\n",
  // lib/db's areas are libraries of their own: one reaches another by its entry, as does lib/ code above
  // lib/db and lib/db's testing/ helpers; a lower area never imports a higher one.
  'lib/db/core/index.ts': "export { getDb } from './client';\n",
  'lib/db/core/client.ts': 'export const getDb = () => 3;\n',
  'lib/db/core/calls-runs.ts': "import { saveRun } from '../runs';\nexport const up = saveRun;\n",
  'lib/db/runs/index.ts': "export { saveRun } from './write';\n",
  'lib/db/runs/deep.ts': "import { getDb } from '../core/client';\nexport const deep = getDb;\n",
  'lib/db/testing/deep.ts': "import { saveRun } from '../runs/write';\nexport const deep = saveRun;\n",
  'lib/jobs/deep.ts': "import { saveRun } from '@/lib/db/runs/write';\nexport const deep = saveRun;\n",
  // What keeps to the plan:
  'lib/db/runs/write.ts': "import { getDb } from '../core';\nexport const saveRun = getDb;\n",
  'lib/db/testing/fixtures.ts': "import { saveRun } from '../runs';\nexport const fixture = saveRun;\n",
  'lib/db/runs/write.test.ts': "import { getDb } from '../core/client';\nimport { fixture } from '../testing/fixtures';\nexport const t = [getDb, fixture];\n",
  'lib/jobs/store.ts': "import { saveRun } from '../db/runs';\nimport { fixture } from '../db/testing/fixtures';\nexport const store = [saveRun, fixture];\n",
  'lib/actions/save.ts': "import { saveRun } from '../db/runs/write';\nexport const save = saveRun;\n",
  'lib/mcp/client/connect.ts': "import { serve } from '../server';\nexport const connect = serve;\n",
  'lib/eval/fine.ts': "import { runLoop } from '../harness';\nimport type { words } from '../harness/browser';\nexport const fine = runLoop;\nexport type W = typeof words;\n",
  'lib/eval/fine.test.ts': "import { runLoop } from '../harness/loop/run';\nimport { GET } from '../../app/api/thing/route';\nexport const t = [runLoop, GET];\n",
  'lib/actions/act.ts': "import { runLoop } from '../harness/loop/run';\nexport const act = runLoop;\n",
  'app/api/thing/route.ts': "import { runLoop } from '../../../lib/harness/loop/run';\nexport const GET = runLoop;\n",
};

let dir: string;
let graph: ImportGraph;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  graph = await cruiseImports(['lib', 'app'], dir);
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the import check, on a tree with one violation of each rule', () => {
  it('read the planted tree', () => {
    expect(graph.modules).toEqual(expect.arrayContaining(['lib/eval/deep.ts', 'lib/harness/browser.ts', 'app/api/thing/route.ts']));
  });

  it('refuses an import of another library’s internals, and nothing that enters by a door, a test or app code', () => {
    expect(deepImports(graph.edges, DOORED, ['actions']).sort()).toEqual([
      'lib/db/runs/deep.ts → lib/db/core/client.ts',
      'lib/db/testing/deep.ts → lib/db/runs/write.ts',
      'lib/eval/deep.ts → lib/harness/loop/run.ts',
      'lib/jobs/deep.ts → lib/db/runs/write.ts',
      'lib/mcp/client/deep.ts → lib/mcp/server/serve.ts',
    ]);
  });

  it('refuses an import from lib/ of app/, but lets a test file compose the app', () => {
    expect(libToApp(graph.edges)).toEqual(['lib/eval/to-app.ts → app/api/thing/route.ts']);
  });

  it('refuses an import of a higher floor', () => {
    expect(upwardImports(graph.edges, FLOORS).sort()).toEqual(['lib/db/core/calls-runs.ts → lib/db/runs/index.ts', 'lib/harness/upward.ts → lib/eval/index.ts', 'lib/mcp/server/calls-client.ts → lib/mcp/client/index.ts']);
  });

  it("counts lib/mcp/server, lib/mcp/client and lib/db's areas as libraries of their own, and nothing else one folder down", () => {
    expect(['lib/mcp/server/serve.ts', 'lib/mcp/client/oauth/sealed.ts', 'lib/mcp/index.ts', 'lib/harness/loop/run.ts', 'lib/db/runs/runs-write.ts', 'lib/db/core/client.ts', 'lib/db/testing/test-databases.ts'].map(libraryOf)).toEqual(['mcp/server', 'mcp/client', 'mcp', 'harness', 'db/runs', 'db/core', 'db']);
  });

  it('finds the circle', () => {
    expect(circles(graph.edges).sort()).toEqual(['lib/eval/ring-a.ts → lib/eval/ring-b.ts', 'lib/eval/ring-b.ts → lib/eval/ring-a.ts']);
  });

  it('finds a Node built-in or a server-only module behind a browser door, but not a type-only import through it', () => {
    expect(browserDoorLeaks(graph.edges).sort()).toEqual(['lib/harness/browser.ts: lib/harness/disk.ts → fs', 'lib/harness/browser.ts: lib/harness/secret.ts → node_modules/server-only/index.js']);
  });

  it('finds a door that re-exports with export *', () => {
    const doors = new Map(graph.modules.filter((m) => /\/(index|browser)\.ts$/.test(m)).map((m) => [m, fs.readFileSync(path.join(dir, m), 'utf8')]));
    expect(wildcardDoors(doors)).toEqual(['lib/eval/index.ts']);
  });
});
