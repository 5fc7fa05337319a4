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
