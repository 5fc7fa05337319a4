/**
 * Browser tests: Debian's Chromium against a production build (`next build` + scripts/start.mjs) on
 * port 3100 (E2E_PORT) with a fresh temporary SQLite database, one worker (the machine has two cores and the
 * specs share one server). Global setup creates the e2e users and signs them in; every spec starts
 * signed in as the admin (admin, operator, reviewer) unless it picks another user's state.
 */
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { createHash } from 'node:crypto';
import { E2E_AUTH_SECRET, E2E_OTLP_TOKEN, storageStateOf } from './e2e/support/users';
import { E2E_PROVIDER_KEY } from './e2e/support/live';
import { writeHostileDataset } from './e2e/support/hostile-dataset';
import { writeE2ePolicy } from './e2e/support/policy';
import { execFileSync } from 'node:child_process';

// E2E_PORT lets several checkouts run their browser suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 3100);
// Evaluated once by the runner (which starts the web server) and again in each worker (which never
// uses it), so a per-run name is enough to keep every test run's database fresh.
const DB_FILE = process.env.E2E_DB_FILE ?? path.join(os.tmpdir(), `stockroom-e2e-${Date.now()}-${process.pid}.db`);
process.env.E2E_DB_FILE = DB_FILE;
// A dataset whose tool output carries markup, for the security spec (written once per test run).
const HOSTILE_DIR = process.env.E2E_HOSTILE_DATASET ?? writeHostileDataset();
process.env.E2E_HOSTILE_DATASET = HOSTILE_DIR;
// The repository's policy plus a quorum rule and an escalating rule of their own (e2e/support/policy.ts).
const POLICY_FILE = (process.env.E2E_POLICY_FILE ??= writeE2ePolicy());
// Workers and CLIs a spec starts read the same file as the server (a decision is bound to its version).
process.env.STOCKROOM_POLICY_FILE = POLICY_FILE;
// The offline model server (live-model specs) on a port free now; chosen once and inherited by the workers.
const MODEL_PORT = Number(
  (process.env.E2E_MODEL_PORT ??= execFileSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"], {
    encoding: 'utf8',
  })),
);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1400, height: 1000 },
    trace: 'retain-on-failure',
    storageState: storageStateOf('admin'),
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      // Latency makes a live run take long enough to be watched stepping in replay.
      command: `npm run stockroom -- model-server --port ${MODEL_PORT} --latency-ms 5000`,
      url: `http://127.0.0.1:${MODEL_PORT}/v1/models`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
    // start.mjs builds when the build is older than the sources (npm test builds beside the unit suite).
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${PORT}/`,
    // next build alone takes 2–3 min on two cores, and longer when the machine is busy.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      DATABASE_URL: `file:${DB_FILE}`,
      NEXT_TELEMETRY_DISABLED: '1',
      CHECKPOINT_DISABLE: '1',
      BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
      BETTER_AUTH_URL: `http://127.0.0.1:${PORT}`,
      STOCKROOM_EXTRA_DATASETS: HOSTILE_DIR,
      STOCKROOM_POLICY_FILE: POLICY_FILE,
      // The OTLP receiver's tenant token, configured hashed as in production.
      STOCKROOM_OTLP_TOKENS: `kittiwake:${createHash('sha256').update(E2E_OTLP_TOKEN).digest('hex')}`,
      // Live models: the offline model server as the openai-compatible endpoint, and a key that must stay on the server.
      STOCKROOM_MODEL_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`,
      OPENAI_API_KEY: E2E_PROVIDER_KEY,
      // Webhook specs run their receiver on 127.0.0.1: the operator's allowance for private targets.
      STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    },
  ],
});
