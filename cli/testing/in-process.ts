/**
 * Runs a CLI command in the test's own process with `env` set (an undefined value unsets a variable)
 * and stdout and stderr captured: what in-process CLI tests use when they need the database they set up, or a
 * stub server of theirs, without spawning. A usage error (or a ConfigError, the CLI's exit 2) is
 * returned as code 2 with its message; anything else is thrown.
 */
import { vi } from 'vitest';
import { CliUsageError } from '../args';
import type { CliCommand } from '../command';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(name: string, args: string[], env: Record<string, string | undefined>): Promise<InProcessResult> {
  const { command } = (await import(`../commands/${name}`)) as { command: CliCommand };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  let stdout = '';
  let stderr = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await command.run(args), stdout, stderr };
  } catch (err) {
    if (err instanceof CliUsageError || (err instanceof Error && err.name === 'ConfigError')) return { code: 2, stdout, stderr: stderr + err.message };
    throw err;
  } finally {
    spy.mockRestore();
    spyErr.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
