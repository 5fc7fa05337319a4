/**
 * The /api/mcp endpoint of this web process: its sessions, and its callers' environments and taint.
 * A module of its own (a route file may export only its handlers) so tests can reap its sessions.
 */
import { defaultDatasetDir, loadDataset } from '@/lib/stockroom/dataset/load-dataset';
import { WebMcpEndpoint } from '@/lib/mcp/server/web-endpoint';

// loadDataset memoises by directory, so this reads the files once per process.
export const endpoint = new WebMcpEndpoint(() => loadDataset(defaultDatasetDir()));
