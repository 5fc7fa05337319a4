/**
 * A tool server process killed and started again on the same port between two tool calls of a run
 * (real processes: `stockroom mcp-server --transport http`, governed writes journaled in a SQLite
 * database by `--approvals`). Before, the run's next call failed: the new process knows none of the
 * old one's sessions and answers 404 ("Session not found"), or the executor had already marked the
 * server gone. Now the executor opens a new session and the run completes with the same tools; the
 * write sent across the restart is applied once — one entry in the run's journal, one in the server's
 * durable journal, one effect — and the record says a new session was opened for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../db/core/client';
import { createTestDatabaseUrl } from '../db/testing/test-databases';
import { JournaledExecutor } from '../governance/journaled-executor';
import { MemoryJournalStore } from '../governance/memory-journal-store';
import { resolveConfig } from '../harness/config';
import type { ModelClient } from '../harness/model/client';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { ToolRecord, ToolSessionEvent } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { childEnvironment } from './client/connections';
import { createExecutor } from './client/create-executor';
import type { McpToolExecutor } from './client/mcp-executor';
import { REPO_ROOT } from './shared/paths';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

const ACTOR = 'restart-agent';
const SKU = 'SKU-2003';

/** `stockroom mcp-server --transport http` on `port` (0: any), governed, its journal in the database; resolves with its URL once it listens. */
async function startServer(env: Record<string, string>, port: number): Promise<{ url: string; port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'mcp-server', '--transport', 'http', '--port', String(port), '--dataset', OWN_DATASET_DIR,
      '--policy', 'config/policy.json', '--approvals', '--actor', ACTOR],
    { cwd: REPO_ROOT, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const found = /on (http:\/\/\S+\/mcp)/.exec(err);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcp-server exited with ${code}: ${err}`)));
  });
  return { url, port: Number(new URL(url).port), child };
}

/** Kills the process outright (no graceful shutdown) and waits until it is gone. */
function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe.skipIf(!hasOwn)('a tool server restarted between two calls of a run (real processes, SQLite)', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabaseUrl('sqlite');
    await migrate({ url: database.url });
    db = openDatabase(database.url);
    env = { ...childEnvironment([]), DATABASE_URL: database.url };
  }, 120_000);
  afterAll(async () => {
    await Promise.all(children.map(kill));
    await db?.close();
    await database?.drop();
  });

  it('completes the run with the same tools, the write across the restart applied once and the new session recorded', async () => {
    const first = await startServer(env, 0);
    children.push(first.child);
    const executor = (await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: first.url, mcpServerId: 'inventory' })) as McpToolExecutor;
    const journal = new MemoryJournalStore();
    const journaled = new JournaledExecutor(executor, { store: journal, runId: 'run-restart', isWrite: (t) => t === 'create_restock_request', toolVersion: () => '1' });
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-http' }), executor: journaled });
    const tools = await executor.listTools();

    // The model is slow to answer after the first call: meanwhile the server dies and comes back on its port.
    const script = scriptedModel([{ calls: [['get_stock_level', { sku: SKU }]] }, { calls: [['create_restock_request', { sku: SKU, quantity: 40 }]] }, { text: 'restocked' }]);
    let turn = 0;
    const model: ModelClient = {
      modelId: script.modelId,
      converse: async (req) => {
        turn += 1;
        if (turn === 2) {
          await kill(first.child);
          children.push((await startServer(env, first.port)).child);
        }
        return script.converse(req);
      },
    };
    try {
      const run = await agent.run('restock it', null, { model, operationKey: (c) => journaled.operationKey(c) });
      expect(run.terminationReason).toBe('COMPLETED');
      expect(run.finalAnswer).toBe('restocked');
      expect(await executor.listTools()).toEqual(tools);

      const restock = run.trajectory.find((s): s is ToolRecord => s.kind === 'tool_call' && s.name === 'create_restock_request')!;
      expect(restock.isError).toBe(false);
      expect(restock.resultContent).toMatchObject({ sku: SKU, quantity: 40 });
      // The record: a new session was opened for the write (the server had gone, or answered 404 for the old session).
      const at = run.trajectory.indexOf(restock);
      const renewal = run.trajectory[at - 1] as ToolSessionEvent;
      expect(renewal).toMatchObject({ kind: 'tool_session', step: restock.step, toolUseId: restock.toolUseId, server: 'inventory' });
      expect(['session_ended', 'connection_lost']).toContain(renewal.reason);
      expect(run.trajectory.filter((s) => s.kind === 'tool_session')).toHaveLength(1);

      // Applied once: one journal entry on each side, sent once, one effect committed on the server.
      const key = journaled.operationKey({ toolUseId: restock.toolUseId, name: restock.name, arguments: restock.arguments })!;
      const ours = await journal.list({ runId: 'run-restart' });
      expect(ours).toEqual([expect.objectContaining({ operationKey: key, status: 'committed', attempts: 1 })]);
      const theirs = await db.prisma.effectJournalEntry.findMany({ where: { runId: `mcp:${ACTOR}` } });
      expect(theirs).toEqual([expect.objectContaining({ callId: key, status: 'committed', attempts: 1, tool: 'create_restock_request' })]);
      const effects = (await db.prisma.evidenceEvent.findMany({ where: { runId: `mcp:${ACTOR}` } })).map((e) => JSON.parse(e.body) as { kind: string; effectStatus?: string; detail?: string | null });
      expect(effects.filter((e) => e.kind === 'effect' && e.effectStatus === 'committed')).toHaveLength(1);
      expect(effects.some((e) => e.detail?.startsWith('duplicate delivery'))).toBe(false);
    } finally {
      await agent.close();
    }
  }, 120_000);
});
