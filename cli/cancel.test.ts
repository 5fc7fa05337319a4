import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startModelServer, type ModelServer } from '../lib/models/model-server/server';
import { ProviderStub } from '../lib/models/testing/stub-server';
import { defaultDatasetDir, loadDataset } from '../lib/stockroom/dataset/load-dataset';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('Ctrl-C in the CLI', () => {
  let server: ModelServer;
  beforeAll(async () => {
    // A model that takes a minute to answer: the run is certainly mid-call when Ctrl-C arrives.
    server = await startModelServer({ dataset: loadDataset(defaultDatasetDir()), latencyMs: 60_000 });
  });
  afterAll(() => server.close());

  it('aborts the model call in flight and ends the run cleanly with exit 130', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'run', 'Where is SKU-2001 stored?', '--model', 'openai-compatible:stockroom-fake', '--model-base-url', server.url],
      { cwd: ROOT, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await vi.waitFor(() => expect(server.requests).toBe(1), { timeout: 30_000, interval: 50 });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('cancelling');
    expect(stdout).toContain('termination: MODEL_ERROR');
    expect(stdout).toContain('(cancelled)');
  }, 60_000);
});

describe('Ctrl-C during a retry wait (issue 22 §4)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
    // Every attempt is throttled with a 30 s Retry-After.
    stub.respondWith(() => ({ kind: 'error', status: 429, headers: { 'retry-after': '30' } }));
  });
  afterAll(() => stub.close());

  it('ends the run at once instead of waiting the Retry-After out (observed: 23 s)', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'run', 'Where is SKU-2001 stored?', '--model', 'openai-compatible:stub', '--model-base-url', stub.baseURL],
      { cwd: ROOT, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await vi.waitFor(() => expect(stub.requests).toHaveLength(1), { timeout: 30_000, interval: 50 });
    // The 429 has been answered; give the client a moment to start its 30 s wait.
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGINT');
    // The test's own timeout is well under the 30 s Retry-After.
    expect(await exited).toBe(130);
    expect(stdout).toContain('termination: MODEL_ERROR');
    expect(stdout).toContain('(cancelled)');
    expect(stub.requests).toHaveLength(1);
  }, 25_000);
});
