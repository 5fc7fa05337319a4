/**
 * The offline model server as a process of its own (`node --import tsx model-server-main.ts
 * <datasetDir> <latencyMs>`), for a test that runs it somewhere the test process is not, e.g.
 * inside a network namespace beside a worker. Prints `listening <url>` once it serves.
 */
import { loadDataset } from '../../stockroom';
import { startModelServer } from '../../models';

const [datasetDir, latency] = process.argv.slice(2);
if (!datasetDir) throw new Error('usage: model-server-main.ts <datasetDir> [latencyMs]');
const server = await startModelServer({ dataset: loadDataset(datasetDir), latencyMs: Number(latency ?? 0) });
process.stdout.write(`listening ${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
