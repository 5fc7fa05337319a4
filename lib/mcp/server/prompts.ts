/**
 * Prompts of our own server (issue 40), over the caller's ResourceSource: `explain_run` hands a
 * client's model one run of the caller's tenant, embedded as its resource, with what to explain.
 * A run the caller cannot see is answered like a missing one.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { ResourceSource } from './resources';
import { APPROVAL_QUEUE_URI, resourceUri } from './resources';

export const EXPLAIN_RUN_PROMPT = 'explain_run';
export const TRIAGE_APPROVALS_PROMPT = 'triage_approvals';

const EXPLAIN_RUN: Prompt = {
  name: EXPLAIN_RUN_PROMPT,
  title: 'Explain a run',
  description: 'What a stored run was asked, which tools it called with what, what guards or policies did, and why it ended as it did.',
  arguments: [{ name: 'runId', description: 'The run id, or its last characters', required: true }],
};

const TRIAGE_APPROVALS: Prompt = {
  name: TRIAGE_APPROVALS_PROMPT,
  title: 'Triage the approval queue',
  description: 'The pending approval requests, soonest to expire first: what each approved call would do, what needs a closer look, and what runs out soon. A person decides, in the dashboard.',
};

const TRIAGE =
  'Triage this approval queue for a reviewer. For each pending request, in the order given (soonest to expire first): say in one ' +
  'line what the call would do if approved (tool and arguments, quoted exactly), why the policy held it (rule and message), how ' +
  'many approvals it still needs (quorum minus the approvals so far), and how long is left before it expires. Then list the ' +
  'requests that need a closer look — a run that read planted instructions (tainted), quantities or amounts far from the ' +
  'usual, a request about to expire — and why. Do not recommend approving anything you cannot justify from the request ' +
  'itself, and do not decide: a reviewer approves or denies each one on its page in the dashboard.';

const ASK =
  'Explain this agent run to an operator: what was asked; each tool call in order, with its arguments and what came back ' +
  '(errors and schema violations included); anything a guard, guardrail or policy blocked or held for approval; and why the ' +
  'run ended as it did (its termination reason). Quote ids and figures from the run; do not guess what is not in it.';

export function servePrompts(server: Server, source: ResourceSource): void {
  const prompts = [EXPLAIN_RUN, ...(source.approvalQueue ? [TRIAGE_APPROVALS] : [])];
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name === TRIAGE_APPROVALS_PROMPT && source.approvalQueue) {
      const queue = await source.approvalQueue();
      return {
        description: 'Triage the pending approval requests',
        messages: [
          { role: 'user', content: { type: 'text', text: TRIAGE } },
          { role: 'user', content: { type: 'resource', resource: { uri: APPROVAL_QUEUE_URI, mimeType: queue.mimeType, text: queue.text } } },
        ],
      };
    }
    if (name !== EXPLAIN_RUN_PROMPT) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name} (this server has ${prompts.map((p) => p.name).join(', ')})`);
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
