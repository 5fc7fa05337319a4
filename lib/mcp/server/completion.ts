/**
 * Completion (issue 40) of the arguments of our resource templates and of the explain_run prompt:
 * the caller's own run ids, suite ids and golden-set names that start with what was typed.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { EXPLAIN_RUN_PROMPT } from './prompts';
import { ARGUMENT_KIND, COMPLETION_LIMIT, RESOURCE_TEMPLATES, type ResourceKind, type ResourceSource } from './resources';

/** The kind a completion request is about: a template's argument, or the explain_run prompt's runId; null otherwise. */
function completionKind(ref: { type: string; uri?: string; name?: string }, argument: string): ResourceKind | null {
  if (ref.type === 'ref/prompt') return ref.name === EXPLAIN_RUN_PROMPT && argument === 'runId' ? 'run' : null;
  const template = RESOURCE_TEMPLATES.find((t) => t.uriTemplate === ref.uri);
  return template && template.uriTemplate.includes(`{${argument}}`) ? (ARGUMENT_KIND[argument] ?? null) : null;
}

/** Serves completion on `server` (which must have declared the `completions` capability). */
export function serveCompletion(server: Server, source: ResourceSource): void {
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const kind = completionKind(request.params.ref, request.params.argument.name);
    const values = kind ? await source.complete(kind, request.params.argument.value) : [];
    return { completion: { values: values.slice(0, COMPLETION_LIMIT), total: values.length, hasMore: false } };
  });
}
