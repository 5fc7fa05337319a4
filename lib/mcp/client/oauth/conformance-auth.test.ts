/**
 * Issue 24 §7, as a client: the official conformance suite's client scenarios, every `auth/*` one
 * among them (observed before: all failed with "Missing Authorization header"), against our MCP
 * client stack and OAuth provider (lib/mcp/testing/conformance-client.ts). Each scenario runs its
 * own authorization server and MCP server on 127.0.0.1; a scenario counts only with its checks run,
 * none failed and no warning. Elicitation is listed as not applicable in the baseline file.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../shared/paths';

const run = promisify(execFile);
const SUITE = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = path.join(REPO_ROOT, 'config/mcp-conformance-baseline.yaml');
const ENTRY = path.join(REPO_ROOT, 'lib/mcp/testing/conformance-client.ts');
const NOT_APPLICABLE = ['elicitation-sep1034-client-defaults'];
/** Scenarios run at once (each starts the suite's own servers and our client). */
const PARALLEL = 4;

async function clientScenarios(): Promise<string[]> {
  const { stdout } = await run(process.execPath, [SUITE, 'list'], { cwd: REPO_ROOT });
  const section = stdout.slice(stdout.indexOf('Client scenarios'));
  return [...section.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]!);
}

describe('the MCP conformance suite against our client', () => {
  // The same client compiled once, so each scenario starts plain node (~0.2 s) rather than tsx.
  let client: string;
  beforeAll(async () => {
    const outfile = path.join(mkdtempSync(path.join(tmpdir(), 'conformance-client-')), 'client.mjs');
    await build({ entryPoints: [ENTRY], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
    client = `"${process.execPath}" "${outfile}"`;
  }, 60_000);

  it('passes every client scenario, all auth/* ones included, with checks run and no warning', async () => {
    const scenarios = await clientScenarios();
    expect(scenarios.filter((s) => s.startsWith('auth/')).length).toBeGreaterThanOrEqual(15);
    const failures: string[] = [];
    const runOne = async (scenario: string) => {
      const out = await run(process.execPath, [SUITE, 'client', '--command', client, '--scenario', scenario, '--expected-failures', BASELINE], { cwd: REPO_ROOT, timeout: 90_000 }).then(
        ({ stdout, stderr }) => stdout + stderr,
        (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}\nexit non-zero`,
      );
      const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(out);
      if (!counts || Number(counts[1]) === 0 || counts[3] !== '0' || counts[4] !== '0' || !out.includes('OVERALL: PASSED')) failures.push(`${scenario}: ${counts?.[0] ?? out.slice(-400)}`);
    };
    // Most of a scenario's time is the suite waiting on its own servers: a few run side by side.
    const queue = scenarios.filter((s) => !NOT_APPLICABLE.includes(s));
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await runOne(next);
    }));
    expect(failures).toEqual([]);
  }, 300_000);
});
