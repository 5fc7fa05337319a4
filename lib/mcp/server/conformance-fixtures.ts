/**
 * The resources, prompts, completion and client-asking tools the official MCP conformance suite
 * reads and calls by name (resources-*, prompts-*, completion-complete, tools-call-sampling,
 * tools-call-elicitation, elicitation-sep1034/1330): served only with `--conformance-tools`, beside
 * the suite's test tools (conformance-tools.ts), so each scenario runs against the server's real
 * handlers instead of failing for want of a fixture. Never offered to a model.
 *
 * Requests to the client (sampling, elicitation) go out on the session's standalone stream, as the
 * server's notifications do: the HTTP server answers requests as JSON.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type Prompt,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { RED_PIXEL_PNG } from './conformance-tools';
import { RESOURCE_NOT_FOUND } from './resources';

const STATIC_TEXT = 'This is the content of the static text resource.';
const WATCHED = 'test://watched-resource';

/** What the conformance capabilities add to the server's. */
export const CONFORMANCE_CAPABILITIES = { resources: { subscribe: true }, prompts: {}, completions: {} } as const;

const PROMPTS: Prompt[] = [
  { name: 'test_simple_prompt', description: 'Conformance: a prompt with no arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'Conformance: a prompt that repeats its two arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  { name: 'test_prompt_with_embedded_resource', description: 'Conformance: a prompt embedding a resource', arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }] },
  { name: 'test_prompt_with_image', description: 'Conformance: a prompt with an image' },
];

const stringArg = (description: string) => ({ type: 'string', description });

/** The suite's tools that ask the client for something (added to CONFORMANCE_TOOLS' list). */
export const ASKING_TOOLS: readonly Tool[] = [
  { name: 'test_sampling', description: 'Conformance: asks the client to sample its model', inputSchema: { type: 'object', properties: { prompt: stringArg('The prompt to send') }, required: ['prompt'] } },
  { name: 'test_elicitation', description: 'Conformance: asks the client for user input', inputSchema: { type: 'object', properties: { message: stringArg('The message to show') }, required: ['message'] } },
  { name: 'test_elicitation_sep1034_defaults', description: 'Conformance: asks for input with a default for every primitive type', inputSchema: { type: 'object', properties: {} } },
  { name: 'test_elicitation_sep1330_enums', description: 'Conformance: asks for input with every enum form', inputSchema: { type: 'object', properties: {} } },
];

const ASKING = new Set(ASKING_TOOLS.map((t) => t.name));

export function isAskingTool(name: string): boolean {
  return ASKING.has(name);
}

/** Serves the fixtures on `server` (declared with CONFORMANCE_CAPABILITIES). Subscriptions are kept per server, that is per session. */
export function serveConformanceFixtures(server: Server): void {
  const subscribed = new Set<string>();
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' },
      { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png' },
      { uri: WATCHED, name: 'watched-resource', mimeType: 'text/plain' },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    if (uri === 'test://static-text' || uri === WATCHED) return { contents: [{ uri, mimeType: 'text/plain', text: uri === WATCHED ? 'Watched.' : STATIC_TEXT }] };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: RED_PIXEL_PNG }] };
    const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
    if (id) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
    throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  });
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    if (request.params.uri !== WATCHED) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri}`, { uri: request.params.uri });
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const { name, arguments: args = {} } = request.params;
    const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
    switch (name) {
      case 'test_simple_prompt':
        return { messages: [text('This is a simple prompt for testing.')] };
      case 'test_prompt_with_arguments':
        return { messages: [text(`Prompt with arguments: arg1='${args.arg1 ?? ''}', arg2='${args.arg2 ?? ''}'`)] };
      case 'test_prompt_with_embedded_resource': {
        const uri = args.resourceUri;
        if (!uri) throw new McpError(ErrorCode.InvalidParams, 'resourceUri: give the URI of the resource to embed');
        return { messages: [{ role: 'user', content: { type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } }, text('Please process the embedded resource above.')] };
      }
      case 'test_prompt_with_image':
        return { messages: [{ role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } }, text('Please analyze the image above.')] };
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    }
  });
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const { ref, argument } = request.params;
    const known = ref.type === 'ref/prompt' && ref.name === 'test_prompt_with_arguments' && (argument.name === 'arg1' || argument.name === 'arg2');
    const values = known ? ['paris', 'park', 'party'].filter((v) => v.startsWith(argument.value)) : [];
    return { completion: { values, total: values.length, hasMore: false } };
  });
}

/** Runs one of ASKING_TOOLS: asks the client, and answers with what it said. */
export async function callAskingTool(server: Server, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const capabilities = server.getClientCapabilities() ?? {};
  const refuse = (what: string) => ({ content: [{ type: 'text' as const, text: `The client does not offer ${what}.` }], isError: true });
  if (name === 'test_sampling') {
    if (!capabilities.sampling) return refuse('sampling');
    const answer = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt ?? '') } }], maxTokens: 100 });
    const text = answer.content && !Array.isArray(answer.content) && answer.content.type === 'text' ? answer.content.text : JSON.stringify(answer.content);
    return { content: [{ type: 'text', text: `LLM response: ${text}` }] };
  }
  if (!capabilities.elicitation) return refuse('elicitation');
  const requestedSchema =
    name === 'test_elicitation'
      ? { type: 'object' as const, properties: { username: { type: 'string' as const, description: "User's response" }, email: { type: 'string' as const, description: "User's email address" } }, required: ['username', 'email'] }
      : name === 'test_elicitation_sep1034_defaults'
        ? {
            type: 'object' as const,
            properties: {
              name: { type: 'string' as const, default: 'John Doe' },
              age: { type: 'integer' as const, default: 30 },
              score: { type: 'number' as const, default: 95.5 },
              status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean' as const, default: true },
            },
          }
        : {
            type: 'object' as const,
            properties: {
              untitledSingle: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
              titledSingle: { type: 'string' as const, oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
              legacyEnum: { type: 'string' as const, enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
              untitledMulti: { type: 'array' as const, items: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] } },
              titledMulti: { type: 'array' as const, items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
            },
          };
  const message = name === 'test_elicitation' ? String(args.message ?? '') : 'Conformance: please answer';
  const answer = await server.elicitInput({ message, requestedSchema } as unknown as Parameters<Server['elicitInput']>[0]);
  const said = `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  return { content: [{ type: 'text', text: name === 'test_elicitation' ? `User response: ${said}` : `Elicitation completed: ${said}` }] };
}
