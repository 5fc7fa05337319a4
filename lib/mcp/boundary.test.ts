/**
 * The boundary lesson: over MCP the tool descriptions belong to the server. A harness with a clean
 * configuration still misroutes when the server it talks to was started with ambiguous_tool_desc.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { isToolRecord } from '../harness/types';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createStockroomAgent } from '../stockroom/agent';
import { createExecutor } from './client/create-executor';
import { hasShared, SHARED_DATASET_DIR } from './test-support';

const QUESTION = "What's the status of order ORD-1001?";

describe.skipIf(!hasShared)('tool descriptions live on the server', () => {
  const dataset = hasShared ? loadDataset(SHARED_DATASET_DIR) : (undefined as never);
  const cleanConfig = resolveConfig({ transport: 'mcp-stdio' });

  async function toolsCalled(serverWeaknesses: Parameters<typeof createExecutor>[0]['weaknesses']): Promise<string[]> {
    const executor = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: serverWeaknesses });
    const agent = await createStockroomAgent({ dataset, config: cleanConfig, executor });
    try {
      const run = await agent.run(QUESTION, null);
      return run.trajectory.filter(isToolRecord).map((r) => r.name);
    } finally {
      await agent.close();
    }
  }

  it('routes the order-status question to search_products when the server has ambiguous_tool_desc', async () => {
    expect(cleanConfig.weaknesses).toEqual([]);
    expect((await toolsCalled(['ambiguous_tool_desc']))[0]).toBe('search_products');
  });

  it('routes it to get_order_status once the executor is re-created without the flag', async () => {
    expect((await toolsCalled([]))[0]).toBe('get_order_status');
  });
});
