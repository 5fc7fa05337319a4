/**
 * Starts lib/mcp/testing/stranger-server.ts as a real child process for tests: its stdio command
 * line, or an HTTP child whose URL is read from its first stdout line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../shared';

const ENTRY = path.join(REPO_ROOT, 'lib/mcp/testing/stranger-server.ts');

/** The argv of the stranger over stdio (for `mcpCommand`). */
export function strangerCommand(name = 'stranger'): string[] {
  return [process.execPath, '--import', 'tsx', ENTRY, '--name', name];
}

export interface StrangerHttp {
  url: string;
  child: ChildProcess;
  /** Kills the child (if still alive) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The stranger over streamable HTTP on 127.0.0.1, ready once its URL is printed. */
export async function startStrangerHttp(name = 'stranger'): Promise<StrangerHttp> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, '--http', '--name', name], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`the stranger server exited (${code}) before it listened`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
