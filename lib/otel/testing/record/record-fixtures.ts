/**
 * Re-records the producer fixtures of lib/otel/testing/fixtures by running the real libraries
 * (devDependencies, exact versions) against the OpenAI wire stub on 127.0.0.1: the same small agent
 * — a system prompt, one question, a get_weather tool call, an answer — instrumented by each, its
 * spans (and log records) caught by in-memory exporters and written in the OTLP/JSON shape the
 * official exporters send. The multi-agent producers (a stockroom team, each framework against its own
 * provider's stub) are in record-team.ts. Each producer runs in its own process, so no
 * instrumentation patches the `openai` module another one patched.
 *
 *   npm run record:otel-fixtures            # all producers
 *   npm run record:otel-fixtures -- ai-sdk  # one (scenario.ts PRODUCERS, TEAM_PRODUCERS)
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Span } from '@opentelemetry/api';
import { JsonLogsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ProviderStub } from '../../../models/testing/stub-server';
import { FIXTURES, recording, type Recording } from './recording';
import { TEAM_RECORDERS } from './record-team';
import { AGENT, FIXTURE_FILES, PRODUCERS, TEAM_PRODUCERS, type Producer, type TeamProducer } from './scenario';

const require = createRequire(import.meta.url);

type OpenAIModule = typeof import('openai');
type OpenAIClient = InstanceType<OpenAIModule['default']>;

async function stub(): Promise<ProviderStub> {
  const s = await ProviderStub.start('openai');
  s.enqueue(
    { calls: [{ id: AGENT.callId, name: AGENT.toolName, args: { location: AGENT.location } }], usage: AGENT.usage[0] },
    { text: AGENT.answer, usage: AGENT.usage[1] },
  );
  return s;
}

async function save(r: Recording, producer: Producer): Promise<void> {
  await r.provider.forceFlush();
  await r.loggerProvider.forceFlush();
  const files = FIXTURE_FILES[producer];
  const traces = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(r.spans.getFinishedSpans())!).toString('utf8')) as unknown;
  writeFileSync(path.join(FIXTURES, files.traces), JSON.stringify(traces, null, 1) + '\n');
  if (files.logs) {
    const logs = JSON.parse(Buffer.from(JsonLogsSerializer.serializeRequest(r.logs.getFinishedLogRecords())!).toString('utf8')) as unknown;
    writeFileSync(path.join(FIXTURES, files.logs), JSON.stringify(logs, null, 1) + '\n');
  }
  console.log(`${producer}: ${r.spans.getFinishedSpans().length} span(s), ${r.logs.getFinishedLogRecords().length} log record(s) → ${files.traces}${files.logs ? `, ${files.logs}` : ''}`);
}

const toolResult = (location: string) => ({ location, temperature_c: AGENT.temperature, sky: AGENT.sky });

/** The loop a hand-written agent runs over the OpenAI client: call, run the requested tool, call again. */
async function openAiLoop(client: OpenAIClient, runTool: (args: { location: string }, id: string) => Promise<unknown>): Promise<string> {
  const messages: Array<Record<string, unknown>> = [
    { role: 'system', content: AGENT.system },
    { role: 'user', content: AGENT.question },
  ];
  const tools = [{ type: 'function' as const, function: { name: AGENT.toolName, description: AGENT.toolDescription, parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } } }];
  for (let i = 0; i < 3; i++) {
    const response = await client.chat.completions.create({ model: AGENT.model, messages: messages as never, tools, temperature: 0.2, user: AGENT.userId });
    const message = response.choices[0]!.message;
    messages.push(message as unknown as Record<string, unknown>);
    if (!message.tool_calls?.length) return message.content ?? '';
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const result = await runTool(JSON.parse(call.function.arguments) as { location: string }, call.id);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  return '';
}

async function recordAiSdk(): Promise<void> {
  const r = recording('ai-sdk-weather-agent');
  const s = await stub();
  const { generateText, tool, stepCountIs } = await import('ai');
  const { createOpenAI } = await import('@ai-sdk/openai');
  const { z } = await import('zod');
  const openai = createOpenAI({ baseURL: s.baseURL, apiKey: 'sk-stub-not-a-key' });
  const result = await generateText({
    model: openai.chat(AGENT.model),
    system: AGENT.system,
    prompt: AGENT.question,
    temperature: 0.2,
    tools: {
      [AGENT.toolName]: tool({ description: AGENT.toolDescription, inputSchema: z.object({ location: z.string() }), execute: async ({ location }) => toolResult(location) }),
    },
    stopWhen: stepCountIs(3),
    experimental_telemetry: { isEnabled: true, functionId: 'weather-agent', metadata: { sessionId: AGENT.sessionId, userId: AGENT.userId }, tracer: r.tracer },
  });
  if (result.text !== AGENT.answer) throw new Error(`ai-sdk: unexpected answer ${result.text}`);
  await save(r, 'ai-sdk');
  await s.close();
}

async function recordOpenInference(withAgent: boolean): Promise<void> {
  const r = recording('openinference-weather-agent');
  const s = await stub();
  const { OpenAIInstrumentation } = await import('@arizeai/openinference-instrumentation-openai');
  const { SemanticConventions: SC, OpenInferenceSpanKind } = await import('@arizeai/openinference-semantic-conventions');
  const instrumentation = new OpenAIInstrumentation({ tracerProvider: r.provider });
  const openaiModule = require('openai') as OpenAIModule;
  // Given the CommonJS module object (as a require hook would see it); its typing names the class.
  instrumentation.manuallyInstrument(openaiModule as unknown as Parameters<typeof instrumentation.manuallyInstrument>[0]);
  const client = new openaiModule.default({ baseURL: s.baseURL, apiKey: 'sk-stub-not-a-key' });
  const inSpan = <T>(name: string, attributes: Record<string, string>, fn: (span: Span) => Promise<T>) =>
    r.tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await fn(span);
      } finally {
        span.end();
      }
    });
  const runTool = (args: { location: string }, id: string) =>
    withAgent
      ? inSpan(AGENT.toolName, { [SC.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL, [SC.TOOL_NAME]: AGENT.toolName, [SC.TOOL_CALL_ID]: id, [SC.INPUT_VALUE]: JSON.stringify(args) }, async (span) => {
          const result = toolResult(args.location);
          span.setAttribute(SC.OUTPUT_VALUE, JSON.stringify(result));
          return result;
        })
      : Promise.resolve(toolResult(args.location));
  if (withAgent) {
    const session = { [SC.SESSION_ID]: AGENT.sessionId, [SC.USER_ID]: AGENT.userId };
    await inSpan('weather_agent', { [SC.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT, [SC.INPUT_VALUE]: AGENT.question, ...session }, async (agent) => {
      // A retrieval step a framework would add before the model call (neither model nor tool).
      await inSpan('lookup_city_notes', { [SC.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.RETRIEVER, [SC.INPUT_VALUE]: AGENT.location, [`${SC.RETRIEVAL_DOCUMENTS}.0.document.content`]: AGENT.retrieved, [`${SC.RETRIEVAL_DOCUMENTS}.0.document.id`]: 'paris-notes' }, async () => undefined);
      const answer = await openAiLoop(client, runTool);
      agent.setAttribute(SC.OUTPUT_VALUE, answer);
    });
  } else {
    await openAiLoop(client, runTool);
  }
  await save(r, withAgent ? 'openinference-agent' : 'openinference');
  await s.close();
}

async function recordOtelGenAi(): Promise<void> {
  const r = recording('otel-genai-weather-agent');
  const s = await stub();
  const { OpenAIInstrumentation } = await import('@opentelemetry/instrumentation-openai');
  const semconv = await import('@opentelemetry/semantic-conventions/incubating');
  const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
  instrumentation.setTracerProvider(r.provider);
  instrumentation.setLoggerProvider(r.loggerProvider);
  instrumentation.enable();
  const openaiModule = require('openai') as OpenAIModule;
  const client = new openaiModule.default({ baseURL: s.baseURL, apiKey: 'sk-stub-not-a-key' });
  // The application's own spans, named by the GenAI conventions: the agent and its tool.
  await r.tracer.startActiveSpan('invoke_agent weather_agent', { attributes: { [semconv.ATTR_GEN_AI_OPERATION_NAME]: semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT, [semconv.ATTR_GEN_AI_AGENT_NAME]: 'weather_agent', [semconv.ATTR_GEN_AI_CONVERSATION_ID]: AGENT.sessionId } }, async (agent) => {
    await openAiLoop(client, (args, id) =>
      r.tracer.startActiveSpan(`execute_tool ${AGENT.toolName}`, { attributes: { [semconv.ATTR_GEN_AI_OPERATION_NAME]: semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL, [semconv.ATTR_GEN_AI_TOOL_NAME]: AGENT.toolName, [semconv.ATTR_GEN_AI_TOOL_CALL_ID]: id } }, async (span) => {
        span.end();
        return toolResult(args.location);
      }),
    );
    agent.end();
  });
  await save(r, 'otel-genai');
  await s.close();
}

async function recordOpenLlmetry(): Promise<void> {
  const r = recording('openllmetry-weather-agent');
  const s = await stub();
  const { OpenAIInstrumentation } = await import('@traceloop/instrumentation-openai');
  const { SpanAttributes: TL, TraceloopSpanKindValues } = await import('@traceloop/ai-semantic-conventions');
  const instrumentation = new OpenAIInstrumentation({ traceContent: true, enrichTokens: false });
  instrumentation.setTracerProvider(r.provider);
  const openaiModule = require('openai') as OpenAIModule;
  // It patches the client class's static resources (OpenAI.Chat.Completions, …).
  instrumentation.manuallyInstrument(openaiModule.OpenAI);
  const client = new openaiModule.default({ baseURL: s.baseURL, apiKey: 'sk-stub-not-a-key' });
  // What the Traceloop SDK's @workflow / @tool decorators write around the instrumented calls.
  const association = `${TL.TRACELOOP_ASSOCIATION_PROPERTIES}`;
  await r.tracer.startActiveSpan('weather_agent.workflow', { attributes: { [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.WORKFLOW, [TL.TRACELOOP_WORKFLOW_NAME]: 'weather_agent', [TL.TRACELOOP_ENTITY_NAME]: 'weather_agent', [`${association}.session_id`]: AGENT.sessionId, [`${association}.user_id`]: AGENT.userId, [TL.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ args: [AGENT.question] }) } }, async (workflow) => {
    const answer = await openAiLoop(client, (args) =>
      r.tracer.startActiveSpan(`${AGENT.toolName}.tool`, { attributes: { [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.TOOL, [TL.TRACELOOP_ENTITY_NAME]: AGENT.toolName, [TL.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ args: [args], kwargs: {} }) } }, async (span) => {
        const result = toolResult(args.location);
        span.setAttribute(TL.TRACELOOP_ENTITY_OUTPUT, JSON.stringify(result));
        span.end();
        return result;
      }),
    );
    workflow.setAttribute(TL.TRACELOOP_ENTITY_OUTPUT, JSON.stringify(answer));
    workflow.end();
  });
  await save(r, 'openllmetry');
  await s.close();
}

const RECORDERS: Record<Producer | TeamProducer, () => Promise<void>> = {
  ...TEAM_RECORDERS,
  'ai-sdk': recordAiSdk,
  openinference: () => recordOpenInference(false),
  'openinference-agent': () => recordOpenInference(true),
  'otel-genai': recordOtelGenAi,
  openllmetry: recordOpenLlmetry,
};

async function main(): Promise<void> {
  const [only, child] = process.argv.slice(2);
  if (child === '--child' && only) {
    await RECORDERS[only as Producer | TeamProducer]();
    return;
  }
  const all = [...PRODUCERS, ...TEAM_PRODUCERS];
  const producers = only ? [only as Producer | TeamProducer] : all;
  for (const p of producers) {
    if (!(p in RECORDERS)) throw new Error(`unknown producer '${p}'; one of ${all.join(', ')}`);
    const out = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), p, '--child'], { stdio: 'inherit' });
    if (out.status !== 0) throw new Error(`recording ${p} failed`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
