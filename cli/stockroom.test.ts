import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the stockroom CLI', () => {
  it('runs one query and prints the trajectory, transitions, usage and answer', () => {
    const r = cli(['run', 'Where is SKU-2001 stored?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/trajectory:\n {2}\[1\] model {2}in=\d+ out=\d+/);
    expect(r.stdout).toContain('tool   get_stock_level {"sku": "SKU-2001"} → ok');
    expect(r.stdout).toContain('[0] PLAN → CALL_MODEL (start)');
    expect(r.stdout).toContain('termination: COMPLETED');
    expect(r.stdout).toMatch(/answer:\nSKU-2001 \(.+\) (has \d+ units in stock|is out of stock)/);
  });

  it('prints a RunResult as JSON with --json, honouring --weaknesses and --guards', () => {
    const r = cli(['run', 'Where is SKU-2001 stored?', '--weaknesses', 'ambiguous_tool_desc', '--guards', 'grounded_write', '--json']);
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout) as { weaknesses: string[]; trajectory: { kind: string; name?: string }[]; terminationReason: string };
    expect(run.weaknesses).toEqual(['ambiguous_tool_desc']);
    expect(run.trajectory.filter((s) => s.kind === 'tool_call').map((s) => s.name)).toEqual(['search_products']);
    expect(run.terminationReason).toBe('COMPLETED');
  });

  it('refuses bad input with exit code 2 and a message naming the flag or value', () => {
    const flag = cli(['run', 'hello', '--nope']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown flag --nope; allowed flags:');
    const weak = cli(['run', 'hello', '--weaknesses', 'slow_tools']);
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain("Unknown weakness flag(s) ['slow_tools']");
    const transport = cli(['run', 'hello', '--transport', 'fax']);
    expect(transport.code).toBe(2);
    expect(transport.stderr).toContain("--transport must be one of local, mcp-memory, mcp-stdio, mcp-http; got 'fax'");
    const dataset = cli(['run', 'hello', '--dataset', '/nonexistent/dataset']);
    expect(dataset.code).toBe(2);
    expect(dataset.stderr).toMatch(/nonexistent/);
    expect(cli(['frobnicate']).code).toBe(2);
  });

  it('prints the effective configuration, environment first and flags over it', () => {
    const r = cli(['config', '--max-steps', '4'], { TOKEN_BUDGET: '9000', STOCKROOM_WEAKNESSES: 'naive_retry' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ maxSteps: 4, tokenBudget: 9000, weaknesses: ['naive_retry'], maxTokens: 1024 });
    const bad = cli(['config'], { MAX_STEPS: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("MAX_STEPS must be an integer, got 'lots'");
  });
});
