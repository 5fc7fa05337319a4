/**
 * Runs, suites and golden sets as MCP resources of our own server (issue 40), addressed by URI
 * templates. The server knows no database: the caller's route hands in a ResourceSource already
 * scoped to the caller's tenant, so another tenant's run is simply not found (-32002, as the MCP
 * specification names it), never refused in a way that says it exists.
 *
 * Where the transport keeps a session with a stream for notifications (the dashboard's /api/mcp),
 * a run can be followed: `resources/subscribe` on `stockroom://runs/{runId}` sends
 * `notifications/resources/updated` with that URI when the run progresses (a step stored, its end,
 * its deletion), until `resources/unsubscribe` or the session's end.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
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
  /**
   * Follows the caller's run `id`: `changed` is told each time what its resource shows changes after
   * now (`updated`), last when it ends (`ended`) or is deleted (`gone`). Resolves the stop, or null
   * when the caller has no such run. Absent: nothing can be followed.
   */
  watchRun?(id: string, changed: (change: RunChange) => void): Promise<(() => void) | null>;
}

/** What became of a followed run. */
export type RunChange = 'updated' | 'ended' | 'gone';

/** The most resources one session follows at once (each is a watcher of the run in the process's hub). */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100;

/** The most values one completion answers with (the MCP specification caps a page at 100). */
export const COMPLETION_LIMIT = 100;

/** Which template argument names which kind. */
export const ARGUMENT_KIND: Record<string, ResourceKind> = { runId: 'run', suiteId: 'suite', name: 'golden-set' };

/**
 * Serves `source`'s resources on `server` (which must have declared the `resources` capability, with
 * `subscribe` when `subscriptions` is set: the transport has a session and a stream to notify on).
 */
export function serveResources(server: Server, source: ResourceSource, options: { subscriptions?: boolean } = {}): void {
  if (options.subscriptions && source.watchRun) serveSubscriptions(server, source.watchRun.bind(source));
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

/** Each subscribing server's followed URIs (weak: a closed, dropped server takes its entry along). */
const FOLLOWING = new WeakMap<Server, ReadonlyMap<string, unknown>>();

/** Whether `server` follows any run now (its session waits on its stream to be told of it). */
export function followsResources(server: Server): boolean {
  return (FOLLOWING.get(server)?.size ?? 0) > 0;
}

/**
 * `resources/subscribe` and `resources/unsubscribe` for runs, kept per server (that is, per session):
 * each subscription is one watcher in the process's per-run hub, released on unsubscribe, once the
 * run has ended or is gone (after its final update), and when the session closes.
 */
function serveSubscriptions(server: Server, watchRun: NonNullable<ResourceSource['watchRun']>): void {
  const following = new Map<string, () => void>();
  FOLLOWING.set(server, following);
  let closed = false;
  const notify = (uri: string) => void server.sendResourceUpdated({ uri }).catch(() => undefined);

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (following.has(uri)) return {};
    const ref = parseResourceUri(uri);
    if (ref && ref.kind !== 'run') {
      throw new McpError(ErrorCode.InvalidParams, `Only runs can be followed (stockroom://runs/{runId}); ${uri} is read again instead`, { uri });
    }
    if (following.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw new McpError(ErrorCode.InvalidParams, `This session already follows ${following.size} resources (at most ${MAX_SUBSCRIPTIONS_PER_SESSION}); unsubscribe from one first`, { uri });
    }
    let over = false;
    const stop = ref
      ? await watchRun(ref.id, (change) => {
          if (over) return;
          notify(uri);
          // Its last update: the run ended or is gone, and the hub stops reading it by itself.
          if (change !== 'updated') {
            over = true;
            following.get(uri)?.();
            following.delete(uri);
          }
        })
      : null;
    if (stop === null) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    // The session closed, the run ended, or the same URI was subscribed meanwhile: keep one watcher.
    if (closed || over || following.has(uri)) stop();
    else following.set(uri, stop);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    following.get(request.params.uri)?.();
    following.delete(request.params.uri);
    return {};
  });
  const previous = server.onclose;
  server.onclose = () => {
    closed = true;
    for (const stop of following.values()) stop();
    following.clear();
    previous?.();
  };
}
