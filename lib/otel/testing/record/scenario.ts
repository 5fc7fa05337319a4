/**
 * The one small agent every producer fixture records (record-fixtures.ts), and what the tests
 * expect back from each fixture's run: the same question, tool call, tokens and answer.
 */
export const PRODUCERS = ['ai-sdk', 'openinference', 'openinference-agent', 'otel-genai', 'openllmetry'] as const;
export type Producer = (typeof PRODUCERS)[number];

/** Fixture files per producer (traces, and log records where the library sends content as logs). */
export const FIXTURE_FILES: Record<Producer, { traces: string; logs?: string }> = {
  'ai-sdk': { traces: 'ai-sdk-generate-text.json' },
  openinference: { traces: 'openinference-openai.json' },
  'openinference-agent': { traces: 'openinference-openai-agent.json' },
  'otel-genai': { traces: 'otel-genai-openai.json', logs: 'otel-genai-openai.logs.json' },
  openllmetry: { traces: 'openllmetry-openai.json' },
};

export const AGENT = {
  model: 'gpt-4o-mini',
  system: 'You are a weather assistant. Answer in one sentence.',
  question: 'What is the weather in Paris?',
  toolName: 'get_weather',
  toolDescription: 'Current weather for a city',
  location: 'Paris',
  callId: 'call_paris_1',
  temperature: 14,
  sky: 'rain',
  answer: 'Paris: 14 °C and rain.',
  retrieved: 'Paris is in France; it often rains in spring.',
  sessionId: 'session-weather-42',
  userId: 'user-ada',
  /** Per model call: input, output and cached input tokens the stub reports. */
  usage: [
    { input: 120, output: 18, cached: 40 },
    { input: 160, output: 12, cached: 0 },
  ],
} as const;

/**
 * The multi-agent producers (issue 31): one stockroom team — a planner that asks an
 * inventory_checker sub-agent for a stock level (its own get_stock_level call), then files a
 * restock request and answers — run by each framework in its own shape (agents as tools, a
 * supervisor with handoffs, a handoff), each against its provider's wire stub on 127.0.0.1.
 */
export const TEAM_PRODUCERS = ['langgraph-supervisor', 'ai-sdk-subagent', 'strands-agents-as-tools', 'openai-agents-handoff'] as const;
export type TeamProducer = (typeof TEAM_PRODUCERS)[number];

export const TEAM_FIXTURE_FILES: Record<TeamProducer, { traces: string }> = {
  'langgraph-supervisor': { traces: 'langgraph-supervisor.json' },
  'ai-sdk-subagent': { traces: 'ai-sdk-google-subagent.json' },
  'strands-agents-as-tools': { traces: 'strands-agents-as-tools.json' },
  'openai-agents-handoff': { traces: 'openai-agents-handoff.json' },
};

export const TEAM = {
  question: 'Is SKU-42 running low? If it is, file a restock request.',
  planner: { name: 'planner', system: 'You are the stockroom planner. Ask inventory_checker for stock levels, then act on them.' },
  checker: { name: 'inventory_checker', description: 'Checks stock levels of a SKU', system: 'You check stock levels with get_stock_level and report them in one line.' },
  clerk: { name: 'restock_clerk', description: 'Files restock requests', system: 'You file restock requests with create_restock_request.' },
  /** What the planner asks the inventory checker when it calls it as a tool. */
  delegated: 'What is the stock level of SKU-42?',
  sku: 'SKU-42',
  stockTool: { name: 'get_stock_level', description: 'Units on hand and the reorder point of a SKU' },
  restockTool: { name: 'create_restock_request', description: 'Opens a restock request for a SKU' },
  stock: { sku: 'SKU-42', on_hand: 3, reorder_point: 10 },
  quantity: 20,
  requestId: 'RR-1001',
  checkerAnswer: 'SKU-42: 3 on hand, reorder point 10, so it is low.',
  clerkAnswer: 'Filed restock request RR-1001 for 20 units of SKU-42.',
  answer: 'SKU-42 is low (3 on hand); restock request RR-1001 is filed for 20 units.',
  /** The models each producer's stub answers as (the provider's own model ids). */
  models: {
    'langgraph-supervisor': 'claude-haiku-4-5',
    'ai-sdk-subagent': 'gemini-2.5-flash',
    'strands-agents-as-tools': 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'openai-agents-handoff': 'gpt-4o-mini',
  } satisfies Record<TeamProducer, string>,
} as const;

/** Tokens of the team's n-th model call (in call order): each call its own figures, so a sum that drops one shows. */
export const teamUsage = (n: number) => ({ input: 200 + 40 * n, output: 12 + 3 * n, cached: 0 });

/** A tool that moves the conversation to another agent, as each framework names it (a transition, not work). */
export const HANDOFF_TOOL = /^(transfer_to_|transfer_back_to_|handoff_to_)/;

export interface TeamAgentShape {
  path: readonly string[];
  entered: 'root' | 'tool' | 'handoff' | 'delegate';
  /** The agent's own model calls (all its invocations), and the tools it called itself, handoffs aside. */
  modelCalls: number;
  tools: readonly string[];
}

/**
 * What each framework's run is, as the team was scripted (record-team.ts checks its stub script
 * against these counts): the agents, how each was entered, whose calls are whose, and the provider
 * as the producer spells it with the id it normalises to (null where the spans name none).
 */
export const TEAM_SHAPES: Record<TeamProducer, { provider: string; providerId: string | null; agents: readonly TeamAgentShape[] }> = {
  // The supervisor hands the conversation to each worker with a transfer_to_* tool and gets it back.
  'langgraph-supervisor': {
    provider: 'anthropic',
    providerId: 'anthropic',
    agents: [
      { path: [TEAM.planner.name], entered: 'root', modelCalls: 3, tools: [] },
      { path: [TEAM.planner.name, TEAM.checker.name], entered: 'handoff', modelCalls: 2, tools: [TEAM.stockTool.name] },
      { path: [TEAM.planner.name, TEAM.clerk.name], entered: 'handoff', modelCalls: 2, tools: [TEAM.restockTool.name] },
    ],
  },
  'ai-sdk-subagent': {
    provider: 'google.generative-ai',
    providerId: 'google',
    agents: [
      { path: [TEAM.planner.name], entered: 'root', modelCalls: 3, tools: [TEAM.checker.name, TEAM.restockTool.name] },
      { path: [TEAM.planner.name, TEAM.checker.name], entered: 'tool', modelCalls: 2, tools: [TEAM.stockTool.name] },
    ],
  },
  // Strands writes its own name as gen_ai.system; the Bedrock provider is in no attribute.
  'strands-agents-as-tools': {
    provider: 'strands-agents',
    providerId: null,
    agents: [
      { path: [TEAM.planner.name], entered: 'root', modelCalls: 3, tools: [TEAM.checker.name, TEAM.restockTool.name] },
      { path: [TEAM.planner.name, TEAM.checker.name], entered: 'tool', modelCalls: 2, tools: [TEAM.stockTool.name] },
    ],
  },
  // The planner hands off; the inventory checker keeps the conversation and answers.
  'openai-agents-handoff': {
    provider: 'openai',
    providerId: 'openai',
    agents: [
      { path: [TEAM.planner.name], entered: 'root', modelCalls: 1, tools: [] },
      { path: [TEAM.planner.name, TEAM.checker.name], entered: 'handoff', modelCalls: 3, tools: [TEAM.stockTool.name, TEAM.restockTool.name] },
    ],
  },
};
