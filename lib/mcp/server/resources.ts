/**
 * Runs, suites and golden sets as MCP resources of our own server (issue 40), addressed by URI
 * templates. The server knows no database: the caller's route hands in a ResourceSource already
 * scoped to the caller's tenant, so another tenant's run is simply not found (-32002, as the MCP
 * specification names it), never refused in a way that says it exists.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';

/** The MCP specification's code for a resource that does not exist (for this caller). */
export const RESOURCE_NOT_FOUND = -32002;

export type ResourceKind = 'run' | 'suite' | 'golden-set';

const PATHS: Record<ResourceKind, string> = { run: 'runs', suite: 'suites', 'golden-set': 'golden-sets' };

/** The templates clients fill in: one per kind, the id as the last path segment. */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  { uriTemplate: 'stockroom://runs/{runId}', name: 'run', title: 'A run', description: 'A stored run: query, outcome, usage, cost and its whole trajectory (JSON). The id or its last characters.', mimeType: 'application/json' },
  { uriTemplate: 'stockroom://suites/{suiteId}', name: 'suite', title: 'A suite run', description: 'An evaluation or matrix run: its settings and their scores, and its per-case results (JSON).', mimeType: 'application/json' },
  { uriTemplate: 'stockroom://golden-sets/{name}', name: 'golden-set', title: 'A golden set', description: 'The newest version of a golden set, one case per line (JSON Lines).', mimeType: 'application/jsonl' },
];

/** The URI of a resource. */
export function resourceUri(kind: ResourceKind, id: string): string {
  return `stockroom://${PATHS[kind]}/${encodeURIComponent(id)}`;
}

/** The kind and id a URI names, or null when it fits no template. */
export function parseResourceUri(uri: string): { kind: ResourceKind; id: string } | null {
  const match = /^stockroom:\/\/(runs|suites|golden-sets)\/([^/?#]+)$/.exec(uri);
  if (!match) return null;
  const kind = (Object.keys(PATHS) as ResourceKind[]).find((k) => PATHS[k] === match[1])!;
  try {
    return { kind, id: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

/** The caller's tenant's pending approval requests, soonest to expire first (one fixed resource). */
export const APPROVAL_QUEUE_URI = 'stockroom://approvals/pending';

/** The caller's own resources: already scoped to their tenant by whoever builds it. */
export interface ResourceSource {
  /** The pending approval queue (JSON), for the triage_approvals prompt; absent where there is none. */
  approvalQueue?(): Promise<{ mimeType: string; text: string }>;
  /** A bounded list of recent resources (the templates reach the rest). */
  list(): Promise<Resource[]>;
  /** The resource's text, or null when the caller has no such resource. */
  read(kind: ResourceKind, id: string): Promise<{ mimeType: string; text: string } | null>;
  /** Ids (names, for golden sets) of the caller's resources of `kind` that start with `prefix`, at most COMPLETION_LIMIT. */
  complete(kind: ResourceKind, prefix: string): Promise<string[]>;
}

/** The most values one completion answers with (the MCP specification caps a page at 100). */
export const COMPLETION_LIMIT = 100;

/** Which template argument names which kind. */
export const ARGUMENT_KIND: Record<string, ResourceKind> = { runId: 'run', suiteId: 'suite', name: 'golden-set' };

/** Serves `source`'s resources on `server` (which must have declared the `resources` capability). */
export function serveResources(server: Server, source: ResourceSource): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...(source.approvalQueue ? [{ uri: APPROVAL_QUEUE_URI, name: 'approvals-pending', title: 'Pending approval requests', mimeType: 'application/json' }] : []),
      ...(await source.list()),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === APPROVAL_QUEUE_URI && source.approvalQueue) {
      const queue = await source.approvalQueue();
      return { contents: [{ uri, mimeType: queue.mimeType, text: queue.text }] };
    }
    const ref = parseResourceUri(uri);
    const found = ref ? await source.read(ref.kind, ref.id) : null;
    if (!found) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    return { contents: [{ uri, mimeType: found.mimeType, text: found.text }] };
  });
}
