/**
 * Issue 11 §3, "a description for every input field": deliberately not done for the Stockroom tools.
 * The model is shown exactly what a server lists, and the course's figures count every character of
 * the serialised specs (SPEC.md §6.3: 2409 characters; mean_input_tokens 2019.84 = floor(chars / 4)
 * per call). Describing the five undescribed fields (create_restock_request's sku, quantity and
 * priority; search_policy_docs' query and top_k) adds about 215 characters, measured as +111.92 mean
 * input tokens on the reference suite. So the stand-alone server shows outside clients the same
 * specs as the in-process tools: a run against it reproduces the course figures.
 */
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { buildToolSpecs } from '../stockroom/tools/tool-specs';
import { createExecutor } from './client/create-executor';
import type { McpToolExecutor } from './client/mcp-executor';
import { REPO_ROOT } from './shared/paths';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

describe.skipIf(!hasOwn)('the specs an outside client is shown', () => {
  it('are the in-process specs byte for byte (name, description, input schema), so external runs keep the course figures', async () => {
    const dataset = loadDataset(OWN_DATASET_DIR);
    const command = [process.execPath, '--import', 'tsx', 'cli/stockroom.ts', 'mcp-server', '--dataset', OWN_DATASET_DIR];
    const executor = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: command, mcpCwd: REPO_ROOT })) as McpToolExecutor;
    try {
      const listed = (await executor.listSpecs()).filter((s) => s.name !== 'lookup_operation');
      const local = buildToolSpecs(dataset, []);
      for (const spec of local) {
        const seen = listed.find((s) => s.name === spec.name);
        expect(JSON.stringify(seen)).toBe(JSON.stringify(spec));
      }
    } finally {
      await executor.close();
    }
  }, 60_000);
});
