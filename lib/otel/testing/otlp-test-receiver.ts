/**
 * A bare OTLP/HTTP collector for tests: a node:http server on 127.0.0.1 (ephemeral port) that
 * keeps every request it receives (path, content type, raw body) and answers like a collector.
 * `down()` makes it answer 503, to check a failing collector never fails a run.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  contentType: string;
  userAgent: string;
  body: Buffer;
}

export interface OtlpTestReceiver {
  /** `http://127.0.0.1:PORT` (the OTEL_EXPORTER_OTLP_ENDPOINT form: exporters add /v1/traces). */
  endpoint: string;
  requests: ReceivedRequest[];
  down(): void;
  close(): Promise<void>;
}

export async function startOtlpTestReceiver(): Promise<OtlpTestReceiver> {
  const requests: ReceivedRequest[] = [];
  let failing = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', userAgent: req.headers['user-agent'] ?? '', body: Buffer.concat(chunks) });
      if (failing) {
        res.writeHead(503).end();
        return;
      }
      const json = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    down: () => {
      failing = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
