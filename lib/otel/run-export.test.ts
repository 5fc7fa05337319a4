/**
 * The GenAI export: a test collector receives what the official OTLP exporter sends, over both
 * protocols, and checks the GenAI attributes; the received spans come back as the same run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { parseGuardrails } from '../harness/guardrails/config';
import { runHarness } from '../harness/loop/run';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { RunResult } from '../harness/types';
import { otelSettingsFromEnv, type OtlpProtocol } from './env';
import { readOtlpJson, readOtlpProtobuf } from './import/read-otlp';
import type { SpanRecord } from './import/span-record';
import { traceToRun } from './import/trace-to-run';
import { createRunTraceExporter } from './sdk-exporter';
import { startOtlpTestReceiver, type OtlpTestReceiver } from './testing/otlp-test-receiver';
import { sampleRuns } from './testing/sample-runs';

let runs: Awaited<ReturnType<typeof sampleRuns>>;
beforeAll(async () => {
  runs = await sampleRuns();
});

async function exportAndReceive(receiver: OtlpTestReceiver, protocol: OtlpProtocol, run: RunResult, captureContent = false) {
  const warnings: string[] = [];
  const exporter = createRunTraceExporter(
    // A short timeout bounds the exporter's retries against a collector that is down.
    { tracesUrl: `${receiver.endpoint}/v1/traces`, protocol, serviceName: 'otel-export-test', captureContent, headers: {}, timeoutMillis: 1000 },
    (m) => warnings.push(m),
  );
  const before = receiver.requests.length;
  exporter.exportRun(run, { datasetName: 'stockroom-own' });
  await exporter.flush();
  await exporter.shutdown();
  const requests = receiver.requests.slice(before);
  const spans: SpanRecord[] = [];
  for (const r of requests) spans.push(...(protocol === 'http/json' ? await readOtlpJson([r.body]) : readOtlpProtobuf(r.body)));
  return { requests, spans, warnings };
}

const op = (s: SpanRecord) => s.attributes['gen_ai.operation.name'];

describe.each(['http/json', 'http/protobuf'] as const)('exporting a run over %s', (protocol) => {
  let receiver: OtlpTestReceiver;
  beforeAll(async () => {
    receiver = await startOtlpTestReceiver();
  });
  afterAll(() => receiver.close());

  it('posts to /v1/traces with the protocol’s content type and the service name', async () => {
    const { requests, spans } = await exportAndReceive(receiver, protocol, runs.mixed);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.path === '/v1/traces')).toBe(true);
    expect(requests[0]!.contentType).toContain(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
    expect(new Set(spans.map((s) => s.serviceName))).toEqual(new Set(['otel-export-test']));
  });

  it('sends an invoke_agent root, a chat span per model call and an execute_tool span per tool call', async () => {
    const run = runs.mixed;
    const { spans } = await exportAndReceive(receiver, protocol, run);
    const roots = spans.filter((s) => op(s) === 'invoke_agent');
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.parentSpanId).toBeNull();
    expect(root.attributes['gen_ai.agent.name']).toBe('stockroom');
    const chats = spans.filter((s) => op(s) === 'chat');
    const tools = spans.filter((s) => op(s) === 'execute_tool');
    const turns = run.trajectory.filter((s) => s.kind === 'model_turn');
    const records = run.trajectory.filter((s) => s.kind === 'tool_call');
    expect(chats).toHaveLength(run.usage.modelCalls);
    expect(tools).toHaveLength(records.length);
    expect([...chats, ...tools].every((s) => s.parentSpanId === root.spanId && s.traceId === root.traceId)).toBe(true);
    chats.forEach((chat, i) => {
      const turn = turns[i]!;
      expect(chat.kind).toBe(3); // CLIENT
      expect(chat.name).toBe(`chat ${run.modelId}`);
      expect(chat.attributes['gen_ai.provider.name']).toBe('stockroom.fake');
      expect(chat.attributes['gen_ai.request.model']).toBe(run.modelId);
      expect(chat.attributes['gen_ai.usage.input_tokens']).toBe(turn.inputTokens);
      expect(chat.attributes['gen_ai.usage.output_tokens']).toBe(turn.outputTokens);
      expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual([turn.toolCalls.length > 0 ? 'tool_call' : 'stop']);
    });
    tools.forEach((tool, i) => {
      expect(tool.attributes['gen_ai.tool.name']).toBe(records[i]!.name);
      expect(tool.attributes['gen_ai.tool.call.id']).toBe(records[i]!.toolUseId);
    });
    // The schema-invalid call is marked; the clean ones are not.
    expect(tools.map((t) => t.attributes['error.type'] ?? null)).toEqual(records.map((r) => (r.validationError !== null ? 'invalid_arguments' : null)));
    expect(tools.filter((t) => t.statusCode === 2)).toHaveLength(records.filter((r) => r.validationError !== null).length);
    // Transitions are events on the root.
    expect(root.events.filter((e) => e.name === 'stockroom.transition')).toHaveLength(run.transitions.length);
  });

  it('marks a guard-blocked call with error.type blocked_by_guard and a guard trip as a root event', async () => {
    const blocked = await exportAndReceive(receiver, protocol, runs.blocked);
    const tool = blocked.spans.find((s) => op(s) === 'execute_tool')!;
    expect(runs.blocked.trajectory.some((s) => s.kind === 'tool_call' && s.blockedBy !== null)).toBe(true);
    expect(tool.attributes['error.type']).toBe('blocked_by_guard');
    const repeated = await exportAndReceive(receiver, protocol, runs.repeated);
    const root = repeated.spans.find((s) => op(s) === 'invoke_agent')!;
    expect(root.events.find((e) => e.name === 'stockroom.guard')?.attributes['stockroom.guard.reason']).toBe('REPEATED_CALL');
    expect(root.attributes['error.type']).toBe('REPEATED_CALL');
    expect(root.statusCode).toBe(2);
  });

  it('sends no message content unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is on', async () => {
    const off = await exportAndReceive(receiver, protocol, runs.mixed);
    const contentKeys = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'gen_ai.system_instructions', 'stockroom.query'];
    for (const s of off.spans) for (const key of contentKeys) expect(s.attributes[key]).toBeUndefined();
    expect(JSON.stringify(off.spans.map((s) => s.attributes))).not.toContain('lashing');
    const on = await exportAndReceive(receiver, protocol, runs.mixed, true);
    const chat = on.spans.find((s) => op(s) === 'chat')!;
    expect(String(chat.attributes['gen_ai.input.messages'])).toContain('lashing');
  });

  it('sends guardrail events as stockroom.guardrail root events that import back in place (findings’ context only on opt-in)', async () => {
    const config = resolveConfig({ guardrails: parseGuardrails({ must_include: ['units'], detectors: { no_pii: { redact: true } } }) });
    const executor = { transport: 'test', listSpecs: async () => [], call: async () => ({ content: null, isError: false, errorCode: null, payloadChars: 0 }), reset: async () => {}, close: async () => {} };
    const run = await runHarness({ query: 'How many?' }, { config, executor, model: scriptedModel([{ text: 'Forty.' }, { text: '40 units; ask bob@example.com.' }]), systemPrompt: 's' });
    const sent = run.trajectory.filter((s) => s.kind === 'guardrail');
    expect(sent.length).toBeGreaterThan(2);
    const on = traceToRun((await exportAndReceive(receiver, protocol, run, true)).spans)!.run;
    expect(on.trajectory.filter((s) => s.kind === 'guardrail')).toEqual(sent);
    expect(on.trajectory.map((s) => s.kind)).toEqual(run.trajectory.map((s) => s.kind));
    const off = traceToRun((await exportAndReceive(receiver, protocol, run, false)).spans)!.run;
    const back = off.trajectory.filter((s) => s.kind === 'guardrail');
    expect(back.map((e) => [e.guardrail, e.action])).toEqual(sent.map((e) => [e.guardrail, e.action]));
    expect(JSON.stringify(back)).not.toContain('ask ');
  });

  it('comes back through the import as the same model calls, tool calls, tokens and termination', async () => {
    for (const run of [runs.mixed, runs.repeated, runs.blocked]) {
      for (const capture of [false, true]) {
        const { spans } = await exportAndReceive(receiver, protocol, run, capture);
        const back = traceToRun(spans)!.run;
        expect(back.terminationReason).toBe(run.terminationReason);
        expect(back.usage).toEqual(run.usage);
        // A trace does not carry the cost: unknown (null), never $0 (issue 22 §2).
        expect(back.costEstimate).toMatchObject({ usd: null, known: false });
        expect(back.transitions).toEqual(run.transitions);
        expect(back.steps).toBe(run.steps);
        expect(back.trajectory.map((s) => s.kind)).toEqual(run.trajectory.map((s) => s.kind));
        const calls = (r: RunResult) =>
          r.trajectory.flatMap((s) => (s.kind === 'tool_call' ? [[s.step, s.name, s.toolUseId, s.isError, s.blockedBy, s.validationError, s.executed]] : []));
        expect(calls(back)).toEqual(calls(run));
        const turns = (r: RunResult) => r.trajectory.flatMap((s) => (s.kind === 'model_turn' ? [[s.step, s.stopReason, s.inputTokens, s.outputTokens, s.toolCalls.map((c) => [c.name, c.toolUseId])]] : []));
        expect(turns(back)).toEqual(turns(run));
        if (capture) {
          expect(back.query).toBe(run.query);
          expect(back.finalAnswer).toBe(run.finalAnswer);
          expect(back.trajectory.flatMap((s) => (s.kind === 'tool_call' ? [s.arguments, s.resultContent] : []))).toEqual(
            run.trajectory.flatMap((s) => (s.kind === 'tool_call' ? [s.arguments, s.resultContent] : [])),
          );
          expect(back.modelInputs).toEqual(run.modelInputs);
        }
      }
    }
  });

  it('carries a live model’s provider, raw finish reason and cached tokens, and brings them back', async () => {
    const live: RunResult = {
      ...runs.mixed,
      mode: 'live',
      trajectory: runs.mixed.trajectory.map((s) =>
        s.kind === 'model_turn' ? { ...s, provider: 'bedrock', finishReason: s.toolCalls.length ? 'tool_use' : 'end_turn', cachedTokens: 7 } : s,
      ),
    };
    const { spans } = await exportAndReceive(receiver, protocol, live);
    const chat = spans.find((s) => op(s) === 'chat')!;
    expect(chat.attributes['gen_ai.provider.name']).toBe('aws.bedrock');
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_use']);
    expect(chat.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(7);
    const liveFields = (r: RunResult) => r.trajectory.flatMap((s) => (s.kind === 'model_turn' ? [[s.provider, s.finishReason, s.cachedTokens]] : []));
    expect(liveFields(traceToRun(spans)!.run)).toEqual(liveFields(live));
    expect(liveFields(live)[0]).toEqual(['bedrock', 'tool_use', 7]);
  });

  it('carries a streamed call’s time to first token over the wire as gen_ai.response.time_to_first_chunk (seconds) and brings it back', async () => {
    let n = 0;
    const streamed: RunResult = {
      ...runs.mixed,
      mode: 'live',
      trajectory: runs.mixed.trajectory.map((s) => (s.kind === 'model_turn' && (n += 1) === 1 ? { ...s, timeToFirstTokenMs: 187.5 } : s)),
    };
    const { spans } = await exportAndReceive(receiver, protocol, streamed);
    const chats = spans.filter((s) => op(s) === 'chat');
    expect(chats.map((c) => c.attributes['gen_ai.response.time_to_first_chunk'] ?? null)).toEqual([0.1875, ...chats.slice(1).map(() => null)]);
    const ttft = (r: RunResult) => r.trajectory.flatMap((s) => (s.kind === 'model_turn' ? [s.timeToFirstTokenMs ?? null] : []));
    expect(ttft(traceToRun(spans)!.run)).toEqual(ttft(streamed));
  });

  it('never fails the run when the collector is down, and warns once', async () => {
    const down = await startOtlpTestReceiver();
    down.down();
    const { warnings } = await exportAndReceive(down, protocol, runs.mixed);
    expect(warnings, warnings.join('\n')).toHaveLength(1);
    expect(warnings[0]).toContain(down.endpoint);
    await down.close();
    const closed = await exportAndReceive(down, protocol, runs.mixed); // nothing listens now
    expect(closed.warnings).toHaveLength(1);
  });
});

describe('export settings from the environment', () => {
  it('exports nothing when no endpoint is set', () => {
    expect(otelSettingsFromEnv({})).toBeNull();
  });

  it('appends /v1/traces to OTEL_EXPORTER_OTLP_ENDPOINT and defaults to http/protobuf', () => {
    const s = otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'svc' })!;
    expect(s).toMatchObject({ tracesUrl: 'http://127.0.0.1:4318/v1/traces', protocol: 'http/protobuf', serviceName: 'svc', captureContent: false });
    expect(otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c/base/', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toMatchObject({
      tracesUrl: 'http://c/base/v1/traces',
      protocol: 'http/json',
    });
    expect(otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' })?.captureContent).toBe(true);
  });

  it('refuses grpc and a bad endpoint, naming the variable', () => {
    expect(() => otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json; got 'grpc'/);
    expect(() => otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
  });
});

describe('the onRunFinished seam of the agent', () => {
  it('is told of every finished run, and an observer that throws does not fail the run', async () => {
    const { createStockroomAgent } = await import('../stockroom/agent');
    const { loadDataset, defaultDatasetDir } = await import('../stockroom/dataset/load-dataset');
    const { resolveConfig } = await import('../harness/config');
    const seen: string[] = [];
    const dataset = loadDataset(defaultDatasetDir());
    const agent = await createStockroomAgent({
      dataset,
      config: resolveConfig({}),
      onRunFinished: (run) => {
        seen.push(run.runId);
        throw new Error('observer broke');
      },
    });
    try {
      const run = await agent.run('Where is SKU-2001 stored?');
      expect(run.terminationReason).toBe('COMPLETED');
      expect(seen).toEqual([run.runId]);
    } finally {
      await agent.close();
    }
  });
});
