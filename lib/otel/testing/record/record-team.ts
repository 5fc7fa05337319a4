/**
 * The multi-agent producer fixtures of issue 31, each recorded by running the real framework
 * (devDependencies, exact versions) against its provider's wire stub on 127.0.0.1, the spans
 * caught in memory and written as OTLP/JSON (recording.ts). Every framework runs the same stockroom
 * team (scenario.ts TEAM) in its own multi-agent shape:
 *
 * - `langgraph-supervisor`: @langchain/langgraph-supervisor over two ReAct sub-agents, on
 *   @langchain/anthropic (the Anthropic stub), traced by OpenInference's LangChain instrumentation.
 *   (@langchain/openai's current line wants Node 22, so the chat model is Anthropic's.)
 * - `ai-sdk-subagent`: Vercel AI SDK 6 `generateText` whose `inventory_checker` tool runs a
 *   sub-agent `generateText`, on @ai-sdk/google 3.x (the Gemini stub), experimental_telemetry on.
 *   (@ai-sdk/google 4.x is the ai@7 line and wants Node 22; 3.0.x is the ai@6 line.)
 * - `strands-agents-as-tools`: @strands-agents/sdk 1.16.0 — 1.17 and later want Node 22 — a
 *   planner Agent with the inventory checker Agent in its tools, on BedrockModel (Converse, the
 *   Bedrock stub), its own OTel spans through the global tracer provider.
 * - `openai-agents-handoff`: @openai/agents 0.14.3 — 0.15 and later depend on openai 7, which wants
 *   Node 22 — a planner handing off to the inventory checker, on chat completions (the OpenAI
 *   stub). The SDK traces to its own processors, not OTel; the spans come from OpenInference's
 *   OpenAIAgentsInstrumentation (@arizeai/openinference-instrumentation-openai-agents), a trace
 *   processor of Arize's that turns them into OTel spans — not a bridge of ours.
 */
import { trace } from '@opentelemetry/api';
import type { JsonValue } from '../../../harness';
import { ProviderStub } from '../../../models/testing/stub-server';
import { formatAnthropic, type StubTurn } from '../../../models/testing/wire-formats';
import { GeminiStub } from './gemini-stub';
import { recording, writeTraces, type Recording } from './recording';
import { TEAM, TEAM_FIXTURE_FILES, TEAM_SHAPES, teamUsage as usage, type TeamProducer } from './scenario';

const call = (id: string, name: string, args: JsonValue) => ({ calls: [{ id, name, args }] });

const stockArgs = { sku: TEAM.sku };
const restockArgs = { sku: TEAM.sku, quantity: TEAM.quantity };
const stockResult = () => ({ ...TEAM.stock });
const restockResult = (sku: string, quantity: number) => ({ request_id: TEAM.requestId, sku, quantity });

/** Planner → inventory_checker (called as a tool) → get_stock_level → back → create_restock_request → answer. */
function agentsAsToolsScript(checkerArgs: JsonValue): StubTurn[] {
  return [
    { ...call('call_checker_1', TEAM.checker.name, checkerArgs), usage: usage(0) },
    { ...call('call_stock_1', TEAM.stockTool.name, stockArgs), usage: usage(1) },
    { text: TEAM.checkerAnswer, usage: usage(2) },
    { ...call('call_restock_1', TEAM.restockTool.name, restockArgs), usage: usage(3) },
    { text: TEAM.answer, usage: usage(4) },
  ];
}

async function save(r: Recording, producer: TeamProducer): Promise<void> {
  const file = TEAM_FIXTURE_FILES[producer].traces;
  console.log(`${producer}: ${await writeTraces(r, file)} span(s) → ${file}`);
}

function expectAnswer(producer: TeamProducer, answer: unknown, stubCalls: number, scripted: number): void {
  if (answer !== TEAM.answer) throw new Error(`${producer}: unexpected answer ${JSON.stringify(answer)}`);
  const shaped = TEAM_SHAPES[producer].agents.reduce((n, a) => n + a.modelCalls, 0);
  if (stubCalls !== scripted || scripted !== shaped) throw new Error(`${producer}: the stub saw ${stubCalls} model call(s), the script has ${scripted}, TEAM_SHAPES ${shaped}`);
}

async function recordAiSdkSubagent(): Promise<void> {
  const producer = 'ai-sdk-subagent';
  const r = recording('ai-sdk-stockroom-team', 'stockroom-team');
  const s = await GeminiStub.start();
  const script = agentsAsToolsScript({ request: TEAM.delegated });
  s.enqueue(...script);
  const { generateText, tool, stepCountIs } = await import('ai');
  const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
  const { z } = await import('zod');
  const google = createGoogleGenerativeAI({ baseURL: s.baseURL, apiKey: 'stub-not-a-key' });
  const model = google(TEAM.models[producer]);
  const telemetry = (functionId: string) => ({ isEnabled: true, functionId, tracer: r.tracer });
  const inventoryChecker = tool({
    description: TEAM.checker.description,
    inputSchema: z.object({ request: z.string() }),
    // The sub-agent: its own generateText, system prompt and tool, traced under this tool call.
    execute: async ({ request }) => {
      const sub = await generateText({
        model,
        system: TEAM.checker.system,
        prompt: request,
        tools: { [TEAM.stockTool.name]: tool({ description: TEAM.stockTool.description, inputSchema: z.object({ sku: z.string() }), execute: async () => stockResult() }) },
        stopWhen: stepCountIs(3),
        experimental_telemetry: telemetry(TEAM.checker.name),
      });
      return sub.text;
    },
  });
  const result = await generateText({
    model,
    system: TEAM.planner.system,
    prompt: TEAM.question,
    tools: {
      [TEAM.checker.name]: inventoryChecker,
      [TEAM.restockTool.name]: tool({ description: TEAM.restockTool.description, inputSchema: z.object({ sku: z.string(), quantity: z.number() }), execute: async ({ sku, quantity }) => restockResult(sku, quantity) }),
    },
    stopWhen: stepCountIs(4),
    experimental_telemetry: telemetry(TEAM.planner.name),
  });
  expectAnswer(producer, result.text, s.requests.length, script.length);
  await save(r, producer);
  await s.close();
}

async function recordLangGraphSupervisor(): Promise<void> {
  const producer = 'langgraph-supervisor';
  const r = recording('langgraph-stockroom-team', 'stockroom-team');
  const s = await ProviderStub.start('anthropic');
  // Supervisor → transfer_to_inventory_checker → (checker: get_stock_level, report) → back →
  // transfer_to_restock_clerk → (clerk: create_restock_request, report) → back → answer.
  const script: StubTurn[] = [
    { ...call('toolu_transfer_1', `transfer_to_${TEAM.checker.name}`, {}), usage: usage(0) },
    { ...call('toolu_stock_1', TEAM.stockTool.name, stockArgs), usage: usage(1) },
    { text: TEAM.checkerAnswer, usage: usage(2) },
    { ...call('toolu_transfer_2', `transfer_to_${TEAM.clerk.name}`, {}), usage: usage(3) },
    { ...call('toolu_restock_1', TEAM.restockTool.name, restockArgs), usage: usage(4) },
    { text: TEAM.clerkAnswer, usage: usage(5) },
    { text: TEAM.answer, usage: usage(6) },
  ];
  // Each reply its own message id, as Anthropic's are: LangGraph's message reducer merges by id.
  s.enqueue(...script.map((turn, i) => ({ kind: 'raw' as const, body: JSON.stringify({ ...(formatAnthropic(turn, TEAM.models[producer]) as object), id: `msg_stub_${i + 1}` }) })));
  const { LangChainInstrumentation } = await import('@arizeai/openinference-instrumentation-langchain');
  const callbackManager = await import('@langchain/core/callbacks/manager');
  const instrumentation = new LangChainInstrumentation({ tracerProvider: r.provider });
  instrumentation.manuallyInstrument(callbackManager);
  const { ChatAnthropic } = await import('@langchain/anthropic');
  const { tool } = await import('@langchain/core/tools');
  const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
  const { createSupervisor } = await import('@langchain/langgraph-supervisor');
  const { z } = await import('zod');
  const llm = new ChatAnthropic({ model: TEAM.models[producer], anthropicApiUrl: s.baseURL, apiKey: 'sk-ant-stub-not-a-key', temperature: 0, maxRetries: 0 });
  const getStockLevel = tool(async () => JSON.stringify(stockResult()), { name: TEAM.stockTool.name, description: TEAM.stockTool.description, schema: z.object({ sku: z.string() }) });
  const createRestockRequest = tool(async ({ sku, quantity }) => JSON.stringify(restockResult(sku, quantity)), { name: TEAM.restockTool.name, description: TEAM.restockTool.description, schema: z.object({ sku: z.string(), quantity: z.number() }) });
  const checker = createReactAgent({ llm, tools: [getStockLevel], name: TEAM.checker.name, prompt: TEAM.checker.system });
  const clerk = createReactAgent({ llm, tools: [createRestockRequest], name: TEAM.clerk.name, prompt: TEAM.clerk.system });
  const app = createSupervisor({ agents: [checker, clerk], llm, prompt: TEAM.planner.system, supervisorName: TEAM.planner.name }).compile();
  const out = await app.invoke({ messages: [{ role: 'user', content: TEAM.question }] });
  const last = out.messages.at(-1);
  expectAnswer(producer, last?.content, s.requests.length, script.length);
  await save(r, producer);
  await s.close();
}

async function recordStrands(): Promise<void> {
  const producer = 'strands-agents-as-tools';
  const r = recording('strands-stockroom-team', 'stockroom-team');
  // Strands takes its tracer from the global provider (its setupTracer registers one there too).
  trace.setGlobalTracerProvider(r.provider);
  const s = await ProviderStub.start('bedrock');
  const script = agentsAsToolsScript({ input: TEAM.delegated });
  s.enqueue(...script);
  const { Agent, BedrockModel, tool } = await import('@strands-agents/sdk');
  const { z } = await import('zod');
  const { NodeHttpHandler } = await import('@smithy/node-http-handler');
  // HTTP/1.1: the Bedrock runtime client's default Node handler speaks HTTP/2, which the stub does not.
  const model = () =>
    new BedrockModel({
      modelId: TEAM.models[producer],
      stream: false,
      region: 'us-east-1',
      clientConfig: { endpoint: s.origin, credentials: { accessKeyId: 'AKIASTUBNOTAKEY00000', secretAccessKey: 'stub-not-a-secret' }, maxAttempts: 1, requestHandler: new NodeHttpHandler() },
    });
  const checker = new Agent({
    name: TEAM.checker.name,
    description: TEAM.checker.description,
    systemPrompt: TEAM.checker.system,
    model: model(),
    printer: false,
    tools: [tool({ name: TEAM.stockTool.name, description: TEAM.stockTool.description, inputSchema: z.object({ sku: z.string() }), callback: () => stockResult() })],
  });
  const planner = new Agent({
    name: TEAM.planner.name,
    systemPrompt: TEAM.planner.system,
    model: model(),
    printer: false,
    tools: [checker.asTool(), tool({ name: TEAM.restockTool.name, description: TEAM.restockTool.description, inputSchema: z.object({ sku: z.string(), quantity: z.number() }), callback: ({ sku, quantity }) => restockResult(sku, quantity) })],
  });
  const result = await planner.invoke(TEAM.question);
  expectAnswer(producer, String(result).trim(), s.requests.length, script.length);
  await save(r, producer);
  await s.close();
}

async function recordOpenAiAgents(): Promise<void> {
  const producer = 'openai-agents-handoff';
  const r = recording('openai-agents-stockroom-team', 'stockroom-team');
  const s = await ProviderStub.start('openai');
  // Planner → handoff to inventory_checker, who calls both tools and answers (the conversation is its).
  const script: StubTurn[] = [
    { ...call('call_handoff_1', `transfer_to_${TEAM.checker.name}`, {}), usage: usage(0) },
    { ...call('call_stock_1', TEAM.stockTool.name, stockArgs), usage: usage(1) },
    { ...call('call_restock_1', TEAM.restockTool.name, restockArgs), usage: usage(2) },
    { text: TEAM.answer, usage: usage(3) },
  ];
  s.enqueue(...script);
  const agents = await import('@openai/agents');
  const { OpenAIAgentsInstrumentation } = await import('@arizeai/openinference-instrumentation-openai-agents');
  // Exclusive: replaces the SDK's default processor (which would export to OpenAI's tracing API).
  const instrumentation = new OpenAIAgentsInstrumentation({ tracerProvider: r.provider });
  instrumentation.manuallyInstrument(agents);
  const { default: OpenAI } = await import('openai');
  agents.setDefaultOpenAIClient(new OpenAI({ baseURL: s.baseURL, apiKey: 'sk-stub-not-a-key', maxRetries: 0 }));
  agents.setOpenAIAPI('chat_completions');
  const { z } = await import('zod');
  const checker = new agents.Agent({
    name: TEAM.checker.name,
    handoffDescription: TEAM.checker.description,
    instructions: TEAM.checker.system,
    model: TEAM.models[producer],
    tools: [
      agents.tool({ name: TEAM.stockTool.name, description: TEAM.stockTool.description, parameters: z.object({ sku: z.string() }), execute: async () => stockResult() }),
      agents.tool({ name: TEAM.restockTool.name, description: TEAM.restockTool.description, parameters: z.object({ sku: z.string(), quantity: z.number() }), execute: async ({ sku, quantity }) => restockResult(sku, quantity) }),
    ],
  });
  const planner = new agents.Agent({ name: TEAM.planner.name, instructions: TEAM.planner.system, model: TEAM.models[producer], handoffs: [checker] });
  const result = await agents.run(planner, TEAM.question);
  await agents.getGlobalTraceProvider().forceFlush();
  expectAnswer(producer, result.finalOutput, s.requests.length, script.length);
  await save(r, producer);
  await s.close();
}

export const TEAM_RECORDERS: Record<TeamProducer, () => Promise<void>> = {
  'langgraph-supervisor': recordLangGraphSupervisor,
  'ai-sdk-subagent': recordAiSdkSubagent,
  'strands-agents-as-tools': recordStrands,
  'openai-agents-handoff': recordOpenAiAgents,
};
