/**
 * The environment read once at start-up: a bad value is refused by name for the web server, the worker
 * and the CLI (the two commands as real processes), and the configuration reference's table is the one the schemas give.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_KEYS } from '../harness/config';
import { checkEnvironment, EnvironmentError, environmentProblems, envTableMarkdown, ENV_VARIABLES } from './env';

describe('environmentProblems', () => {
  it('names a variable set out of range and what it accepts', () => {
    expect(environmentProblems({ STOCKROOM_WORKER_NICE: '20' }, 'worker')).toEqual([
      { name: 'STOCKROOM_WORKER_NICE', message: "STOCKROOM_WORKER_NICE must be an integer from 0 to 19; got '20'" },
    ]);
  });

  it('refuses other spellings of a bad value: a word, a fraction, an exponent, a non-http URL, a flag word', () => {
    const bad = { STOCKROOM_WORKER_CONCURRENCY: 'four', STOCKROOM_WORKER_GRACE_MS: '1.5', OTLP_MAX_BODY_BYTES: '1e6', BETTER_AUTH_URL: 'ftp://example.test', STOCKROOM_DEBUG: 'yes' };
    expect(environmentProblems(bad, 'web').map((p) => p.name).sort()).toEqual(['BETTER_AUTH_URL', 'OTLP_MAX_BODY_BYTES', 'STOCKROOM_DEBUG', 'STOCKROOM_WORKER_CONCURRENCY']);
    expect(environmentProblems(bad, 'worker').map((p) => p.name).sort()).toEqual(['STOCKROOM_DEBUG', 'STOCKROOM_WORKER_CONCURRENCY', 'STOCKROOM_WORKER_GRACE_MS']);
  });

  it('leaves unset and blank variables to their defaults, and good values alone', () => {
    expect(environmentProblems({ STOCKROOM_WORKER_NICE: ' ', DATABASE_URL: '', OTLP_MAX_BODY_BYTES: undefined }, 'worker')).toEqual([]);
    expect(environmentProblems({ STOCKROOM_WORKER_NICE: '10', DATABASE_URL: 'postgres://u@127.0.0.1/db', STOCKROOM_PROVIDER_LIMITS: 'openai=concurrent:2,rpm:60' }, 'worker')).toEqual([]);
  });

  it('takes PORT=0 (a free port the system picks, as the second servers of the browser suite ask) and refuses a port past 65535', () => {
    expect(environmentProblems({ PORT: '0' }, 'web')).toEqual([]);
    expect(environmentProblems({ PORT: '65536' }, 'web')).toEqual([{ name: 'PORT', message: expect.stringContaining('PORT') }]);
  });

  it('ignores a variable the process does not read', () => {
    expect(environmentProblems({ OTLP_MAX_BODY_BYTES: 'lots' }, 'worker')).toEqual([]);
    expect(environmentProblems({ OTLP_MAX_BODY_BYTES: 'lots' }, 'web')).toHaveLength(1);
  });

  it("checks an area's variables with that area's own parser, naming the variable", () => {
    const db = environmentProblems({ DATABASE_URL: 'mysql://127.0.0.1/db' }, 'cli');
    expect(db).toEqual([{ name: 'DATABASE_URL', message: expect.stringContaining('DATABASE_URL') }]);
    const limits = environmentProblems({ STOCKROOM_PROVIDER_LIMITS: 'openai=rpm:0' }, 'worker');
    expect(limits[0]?.message).toContain('STOCKROOM_PROVIDER_LIMITS');
    const otel = environmentProblems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'web');
    expect(otel).toHaveLength(1);
    expect(otel[0]?.message).toContain('OTEL_EXPORTER_OTLP_PROTOCOL');
    const harness = environmentProblems({ STOCKROOM_WEAKNESSES: 'naive_retry,slow_disk' }, 'cli');
    expect(harness).toHaveLength(1);
    expect(harness[0]?.message).toContain('slow_disk');
  });

  it("refuses issue 34's webhook settings, the cookie secret and the ingest tokens by name, for the web server and the worker", () => {
    for (const process of ['web', 'worker'] as const) {
      expect(environmentProblems({ STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'yes' }, process)).toEqual([
        { name: 'STOCKROOM_WEBHOOK_ALLOW_PRIVATE', message: "STOCKROOM_WEBHOOK_ALLOW_PRIVATE must be true or false (got 'yes')" },
      ]);
      expect(environmentProblems({ STOCKROOM_WEBHOOK_ATTEMPTS: '0' }, process)[0]?.message).toContain('STOCKROOM_WEBHOOK_ATTEMPTS must be an integer from 1 to 25');
    }
    expect(environmentProblems({ STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'true', STOCKROOM_WEBHOOK_TIMEOUT_MS: '5000' }, 'worker')).toEqual([]);
    expect(environmentProblems({ BETTER_AUTH_SECRET: 'short' }, 'web')[0]?.name).toBe('BETTER_AUTH_SECRET');
    expect(environmentProblems({ STOCKROOM_OTLP_TOKENS: 'acme:not-a-hash' }, 'web')[0]?.message).toContain('STOCKROOM_OTLP_TOKENS');
    expect(environmentProblems({ STOCKROOM_DATASET_TENANTS: 'no-equals-sign' }, 'cli')[0]?.message).toContain('STOCKROOM_DATASET_TENANTS');
  });

  it('reports every bad variable at once, one line each', () => {
    expect(() => checkEnvironment({ STOCKROOM_WORKER_NICE: '-1', STOCKROOM_WORKER_HEALTH_PORT: '70000' }, 'worker')).toThrow(EnvironmentError);
    try {
      checkEnvironment({ STOCKROOM_WORKER_NICE: '-1', STOCKROOM_WORKER_HEALTH_PORT: '70000' }, 'worker');
    } catch (err) {
      expect((err as EnvironmentError).problems.map((p) => p.name)).toEqual(['STOCKROOM_WORKER_NICE', 'STOCKROOM_WORKER_HEALTH_PORT']);
      expect((err as Error).message.split('\n')).toHaveLength(3);
    }
  });
});

describe('at start-up', () => {
  const spawnTs = (file: string, args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', file, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      // A database that does not answer: a process that got past the check would fail on it instead.
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...env },
    });

  it('stops the CLI before any command runs, naming the variable (exit 2)', () => {
    const r = spawnTs('cli/stockroom.ts', ['runs', 'list'], { STOCKROOM_DEBUG: 'yes' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("STOCKROOM_DEBUG must be '0' or '1'; got 'yes'");
    expect(r.stderr).not.toContain('127.0.0.1:1');
  });

  it('stops the worker before it opens the database, naming the variable (exit 1)', () => {
    const r = spawnTs('cli/worker.ts', [], { STOCKROOM_WORKER_NICE: 'high' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("STOCKROOM_WORKER_NICE must be an integer from 0 to 19; got 'high'");
    expect(r.stderr).not.toContain('127.0.0.1:1');
  });

  it("stops the web server's start-up hook before it touches the database, naming the variable", async () => {
    const saved = process.env.OTLP_MAX_BODY_BYTES;
    process.env.OTLP_MAX_BODY_BYTES = 'lots';
    try {
      const { registerNode } = await import('../../instrumentation-node');
      await expect(registerNode()).rejects.toThrow("OTLP_MAX_BODY_BYTES must be an integer from 1 to 1073741824; got 'lots'");
    } finally {
      if (saved === undefined) delete process.env.OTLP_MAX_BODY_BYTES;
      else process.env.OTLP_MAX_BODY_BYTES = saved;
    }
  });
});

describe("the configuration reference's table of variables", () => {
  it('is the one the schemas give (npm run docs:generate writes it)', () => {
    const readme = fs.readFileSync('docs/reference/configuration.md', 'utf8');
    const block = /<!-- env-table:start[^>]*-->\n([\s\S]*?)\n<!-- env-table:end -->/.exec(readme)?.[1];
    expect(block).toBe(envTableMarkdown());
    for (const v of ENV_VARIABLES) expect(block).toContain(`\`${v.name}\``);
  });
});

/** Variables read in lib/, app/ and cli/ that are not the operator's configuration, each with why. */
const NOT_CONFIGURATION: Record<string, string> = {
  NODE_ENV: 'set by Next.js and the test runner, not by an operator',
  npm_package_version: 'set by npm: the version the exporter reports',
  BENCH_DB_POSTGRES: "the database benchmark's own switch (npm run bench), not read by the web server, worker or CLI",
  STOCKROOM_SHARED_DIR: "the MCP tests' shared dataset (lib/mcp/test-support.ts)",
  PATH: 'handed on to a tool server child process',
  HOME: 'handed on to a tool server child process',
  USERPROFILE: "where the AWS SDK's credential files are on Windows (lib/models), read with HOME",
};

describe('every variable the code reads', () => {
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'testing' || e.name === 'generated' ? [] : sources(p);
      return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
    });

  it("is in the start-up check's table, the harness configuration, the OTEL_* exporter's, or named here as not configuration", () => {
    const read = new Set<string>();
    for (const file of ['lib', 'app', 'cli'].flatMap(sources)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:process\.env|env)\.([A-Z][A-Z0-9_]+|npm_[a-z_]+)/g)) read.add(m[1]!);
      for (const m of text.matchAll(/_VAR = '([A-Z][A-Z0-9_]+)'/g)) read.add(m[1]!);
      for (const m of text.matchAll(/\benv\[?\(?'([A-Z][A-Z0-9_]+)'/g)) read.add(m[1]!);
    }
    expect(read.size).toBeGreaterThan(20);
    const known = new Set([...ENV_VARIABLES.map((v) => v.name), ...Object.keys(ENV_KEYS), ...Object.keys(NOT_CONFIGURATION)]);
    expect([...read].filter((name) => !known.has(name) && !name.startsWith('OTEL_')).sort()).toEqual([]);
  });
});
