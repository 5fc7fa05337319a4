/**
 * Issue 11 §2, per-session weakness flags over stdio: a stdio server started with
 * --session-weaknesses takes the flags the client asks for in its initialize request and states them
 * in its initialize result; the client confirms them before use. A server started without it keeps
 * its own flags and the client refuses the mismatch, naming the flags. Real child processes.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ConfigError } from '../harness/errors';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import type { McpToolExecutor } from './client/mcp-executor';
import { REPO_ROOT } from './shared/paths';
import { requestedWeaknessCapability } from './shared/session-weaknesses';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

const server = (extra: string[]) => [process.execPath, '--import', 'tsx', 'cli/stockroom.ts', 'mcp-server', '--dataset', OWN_DATASET_DIR, ...extra];

describe.skipIf(!hasOwn)('per-session weakness flags over stdio', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);

  it('builds each session with the flags its client asked for, confirmed from the initialize result', async () => {
    const command = server(['--session-weaknesses']);
    const flagged = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: ['oversized_payload'], mcpCommand: command, mcpCwd: REPO_ROOT })) as McpToolExecutor;
    const clean = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: command, mcpCwd: REPO_ROOT })) as McpToolExecutor;
    try {
      expect(flagged.serverWeaknesses()).toEqual({ active: ['oversized_payload'], perSession: true });
      expect(clean.serverWeaknesses()).toEqual({ active: [], perSession: true });
      // The flag is real on that session only: the same search carries full records.
      const args = { query: 'shelving' };
      const big = await flagged.call('search_products', args);
      const small = await clean.call('search_products', args);
      expect(big.isError).toBe(false);
      expect(big.payloadChars).toBeGreaterThan(small.payloadChars);
    } finally {
      await flagged.close();
      await clean.close();
    }
  }, 60_000);

  it('refuses, naming the flags, when the stdio server was not started to let clients choose', async () => {
    const error = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: ['naive_retry'], mcpCommand: server([]), mcpCwd: REPO_ROOT }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/has weakness flags \[none\] but this run asks for \[naive_retry\]; start it with those flags, or with --session-weaknesses/);
  }, 60_000);

  it('answers an initialize asking for an unknown flag with an error naming it', async () => {
    const [command, ...args] = server(['--session-weaknesses']);
    const client = new Client({ name: 't', version: '1' }, { capabilities: { experimental: requestedWeaknessCapability(['not_a_flag']) } });
    const error = await client.connect(new StdioClientTransport({ command: command!, args, cwd: REPO_ROOT, stderr: 'pipe' })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/unknown weakness flag\(s\) "not_a_flag"/);
    await client.close();
  }, 60_000);
});
