/**
 * Prompts of our own server (issue 40), over the caller's ResourceSource: `explain_run` hands a
 * client's model one run of the caller's tenant, embedded as its resource, with what to explain.
 * A run the caller cannot see is answered like a missing one.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { ResourceSource } from './resources';
import { resourceUri } from './resources';

export const EXPLAIN_RUN_PROMPT = 'explain_run';

const PROMPTS: Prompt[] = [
  {
    name: EXPLAIN_RUN_PROMPT,
    title: 'Explain a run',
    description: 'What a stored run was asked, which tools it called with what, what guards or policies did, and why it ended as it did.',
    arguments: [{ name: 'runId', description: 'The run id, or its last characters', required: true }],
  },
];

const ASK =
  'Explain this agent run to an operator: what was asked; each tool call in order, with its arguments and what came back ' +
  '(errors and schema violations included); anything a guard, guardrail or policy blocked or held for approval; and why the ' +
  'run ended as it did (its termination reason). Quote ids and figures from the run; do not guess what is not in it.';

export function servePrompts(server: Server, source: ResourceSource): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name !== EXPLAIN_RUN_PROMPT) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name} (this server has ${PROMPTS.map((p) => p.name).join(', ')})`);
    const runId = args?.runId?.trim();
    if (!runId) throw new McpError(ErrorCode.InvalidParams, 'runId: give the run id (or its last characters)');
    const run = await source.read('run', runId);
    if (!run) throw new McpError(ErrorCode.InvalidParams, `runId: no run ${runId}`);
    return {
      description: `Explain run ${runId}`,
      messages: [
        { role: 'user', content: { type: 'text', text: ASK } },
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri('run', runId), mimeType: run.mimeType, text: run.text } } },
      ],
    };
  });
}
