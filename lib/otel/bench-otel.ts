import 'server-only';
/**
 * Trace benchmarks for `npm run bench -- --only otel` (printed, never asserted): stream-parsing and
 * importing one large OTLP/JSON trace from a file (spans per second, heap growth next to the file
 * size), and exporting a run through the official exporter to a local collector, per protocol.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate } from '../../scripts/db-migrate.mjs';
import { openDatabase } from '../db/core';
import { createTestDatabaseUrl } from '../db/testing/test-databases';
import { importSpanRecords } from './import/import-traces';
import { readOtlpJson } from './import/read-otlp';
import { createRunTraceExporter } from './sdk-exporter';
import { startOtlpTestReceiver } from './testing/otlp-test-receiver';
import { sampleRuns } from './testing/sample-runs';

interface Figure {
  name: string;
  value: number;
  unit: string;
  detail?: string;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: value } : { stringValue: value } });

/** Writes one trace of `steps` chat spans each followed by a tool span, span by span (never whole in memory). */
async function writeLargeTrace(file: string, steps: number): Promise<number> {
  const out = fs.createWriteStream(file);
  const traceId = hex(0xabc, 32);
  const t0 = 1796086453000000000n;
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write('{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"bench-agent"}}]},"scopeSpans":[{"spans":[');
  const root = { traceId, spanId: hex(1, 16), name: 'invoke_agent bench', kind: 1, startTimeUnixNano: String(t0), endTimeUnixNano: String(t0 + BigInt(steps) * 2_000_000n), attributes: [attr('gen_ai.operation.name', 'invoke_agent')] };
  await write(JSON.stringify(root));
  for (let i = 0; i < steps; i++) {
    const start = t0 + BigInt(i) * 2_000_000n;
    const chat = {
      traceId, spanId: hex(2 * i + 2, 16), parentSpanId: hex(1, 16), name: 'chat bench-model', kind: 3,
      startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1_000_000n),
      attributes: [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'bench-model'), attr('gen_ai.usage.input_tokens', 1000 + i), attr('gen_ai.usage.output_tokens', 20)],
    };
    const tool = {
      traceId, spanId: hex(2 * i + 3, 16), parentSpanId: hex(1, 16), name: 'execute_tool lookup', kind: 1,
      startTimeUnixNano: String(start + 1_000_000n), endTimeUnixNano: String(start + 2_000_000n),
      attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'lookup'), attr('gen_ai.tool.call.id', `call_${i}`), attr('gen_ai.tool.call.result', 'x'.repeat(2000))],
    };
    await write(`,${JSON.stringify(chat)},${JSON.stringify(tool)}`);
  }
  await write(']}]}]}');
  out.end();
  await new Promise<void>((r) => out.on('finish', () => r()));
  return fs.statSync(file).size;
}

export async function benchOtel(repeat: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-otel-bench-'));
  const { url, drop } = await createTestDatabaseUrl('sqlite');
  await migrate({ url });
  const db = openDatabase(url);
  try {
    const steps = 10_000;
    const file = path.join(dir, 'trace.json');
    const bytes = await writeLargeTrace(file, steps);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let t = performance.now();
    const records = await readOtlpJson(fs.createReadStream(file));
    const parseMs = performance.now() - t;
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    figures.push({ name: `stream-parse OTLP/JSON (${records.length} spans, ${(bytes / 1e6).toFixed(1)} MB)`, value: Math.round(records.length / (parseMs / 1000)), unit: 'spans/s' });
    figures.push({ name: 'heap growth while parsing (records kept)', value: Math.round(heapGrowth / 1e6), unit: 'MB', detail: `file ${(bytes / 1e6).toFixed(1)} MB` });
    t = performance.now();
    const result = await importSpanRecords(records, { tenant: 'bench', db });
    figures.push({ name: `build + store the run (${result.runs[0]?.modelCalls} model calls)`, value: Math.round(performance.now() - t), unit: 'ms' });

    const runs = await sampleRuns();
    const receiver = await startOtlpTestReceiver();
    try {
      for (const protocol of ['http/json', 'http/protobuf'] as const) {
        const exporter = createRunTraceExporter({ tracesUrl: `${receiver.endpoint}/v1/traces`, protocol, serviceName: 'bench', captureContent: false, headers: {}, timeoutMillis: 5000 });
        const samples: number[] = [];
        for (let i = 0; i < repeat * 20; i++) {
          const s = performance.now();
          exporter.exportRun(runs.mixed);
          await exporter.flush();
          samples.push(performance.now() - s);
        }
        await exporter.shutdown();
        samples.sort((a, b) => a - b);
        figures.push({ name: `export one run + flush to a local collector (${protocol})`, value: Math.round(samples[Math.floor(samples.length / 2)]! * 100) / 100, unit: 'ms' });
      }
    } finally {
      await receiver.close();
    }
  } finally {
    await db.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
