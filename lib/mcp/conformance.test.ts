/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned to 0.1.13: 0.1.14
 * and later import fs.globSync, which Node 20 lacks) against our streamable-HTTP server on a real
 * socket. Scenarios that test features a tools-only server does not have are listed, with why, in
 * config/mcp-conformance-baseline.yaml; the suite fails on any other failure and on a listed
 * scenario that starts passing.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { startStockroomHttpServer, type RunningHttpServer } from './http-server';
import { REPO_ROOT } from './paths';
import { NO_POLICY_REFUSAL } from './serve';
import { hasOwn, OWN_DATASET_DIR } from './test-support';
import { refusingWrites } from './write-gate';

const run = promisify(execFile);
const SUITE = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = path.join(REPO_ROOT, 'config/mcp-conformance-baseline.yaml');

/** The scenarios that apply to a tools server; each must pass. */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-error',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

describe.skipIf(!hasOwn)('the MCP conformance suite against our HTTP server', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await startStockroomHttpServer({
      dataset: loadDataset(OWN_DATASET_DIR),
      weaknesses: [],
      port: 0,
      writesFor: () => refusingWrites(NO_POLICY_REFUSAL),
      log: () => {},
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('passes every server scenario that applies to a tools server, and only the baseline fails', async () => {
    const { stdout } = await run(process.execPath, [SUITE, 'server', '--url', server.url, '--expected-failures', BASELINE], {
      cwd: REPO_ROOT,
      timeout: 120_000,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the conformance suite failed:\n${err.stdout ?? ''}\n${err.stderr ?? err.message}`);
    });
    expect(stdout).toContain('Baseline check passed');
    for (const scenario of APPLICABLE) expect(stdout).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  }, 150_000);
});
