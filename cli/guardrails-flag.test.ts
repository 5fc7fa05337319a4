/** `--guardrails JSON_OR_FILE` on run (eval and matrix share the flag through HARNESS_FLAGS). */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('--guardrails', () => {
  it('runs under inline guardrails: a forbidden tool is refused and the events are printed', () => {
    const r = cli(['run', 'Where is SKU-2001 stored?', '--guardrails', '{"forbid_tools":["get_stock_level"],"on_violation":"warn"}', '--json']);
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout) as { trajectory: { kind: string; guardrail?: string; action?: string; errorCode?: string }[] };
    expect(run.trajectory.find((s) => s.kind === 'tool_call')?.errorCode).toBe('refused_by_guardrail');
    expect(run.trajectory.some((s) => s.kind === 'guardrail' && s.guardrail === 'forbid_tools' && s.action === 'refused')).toBe(true);
  });

  it('reads a file and refuses a bad value naming the field', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'guardrails-')), 'g.json');
    fs.writeFileSync(file, JSON.stringify({ require_tools: ['get_stock_level'], on_violation: 'sometimes' }));
    const r = cli(['run', 'Where is SKU-2001 stored?', '--guardrails', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--guardrails: guardrails.on_violation');
    const missing = cli(['matrix', '--guardrails', 'no-such-file.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--guardrails: 'no-such-file.json' is neither inline JSON nor a readable file");
  });
});
