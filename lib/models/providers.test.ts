import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelClient } from '../harness/model/client';
import type { Message, ToolSpec } from '../harness/types';
import { AnthropicModelClient } from './anthropic-client';
import { BedrockModelClient } from './bedrock-client';
import { OpenAIModelClient } from './openai-client';
import { ProviderStub, type StubProvider } from './testing/stub-server';
import { formatAnthropic, formatBedrock, formatOpenAI } from './testing/wire-formats';

const TOOLS: ToolSpec[] = [
  {
    name: 'get_stock_level',
    description: 'stock of one SKU',
    inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  },
];

/** A conversation with one earlier tool call and its result, as the loop sends it. */
const CONVERSATION: Message[] = [
  { role: 'user', content: [{ text: 'How many SKU-1001 and SKU-1002?' }] },
  { role: 'assistant', content: [{ text: 'Checking.' }, { toolUse: { toolUseId: 'call_prev', name: 'get_stock_level', input: { sku: 'SKU-1001' } } }] },
  { role: 'user', content: [{ toolResult: { toolUseId: 'call_prev', content: [{ json: { sku: 'SKU-1001', stock: 7 } }], status: 'success' } }] },
];

function clientFor(stub: ProviderStub): ModelClient {
  switch (stub.provider) {
    case 'openai':
      return new OpenAIModelClient({ provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-test', baseURL: stub.baseURL });
    case 'anthropic':
      return new AnthropicModelClient({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: stub.baseURL });
    case 'bedrock':
      return new BedrockModelClient({
        model: 'anthropic.claude-test-v1:0',
        region: 'us-east-1',
        endpoint: stub.baseURL,
        credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'x' },
      });
  }
}

/** The raw finish reason each provider sends for a tool turn, a final turn and a truncated one. */
const FINISH: Record<StubProvider, { tool: string; end: string; length: string }> = {
  openai: { tool: 'tool_calls', end: 'stop', length: 'length' },
  anthropic: { tool: 'tool_use', end: 'end_turn', length: 'max_tokens' },
  bedrock: { tool: 'tool_use', end: 'end_turn', length: 'max_tokens' },
};

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s client against its wire-level stub', (provider) => {
  let stub: ProviderStub;
  let client: ModelClient;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
    client = clientFor(stub);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.requests.length = 0;
  });

  const converse = () => client.converse({ system: 'You are a stock clerk.', messages: CONVERSATION, tools: TOOLS, maxTokens: 256 });

  it('maps text and parallel tool calls in one turn, keeping the provider ids, stop reason and usage', async () => {
    stub.enqueue({
      text: 'Let me check both.',
      calls: [
        { id: 'call_a1', name: 'get_stock_level', args: { sku: 'SKU-1001' } },
        { id: 'call_b2', name: 'get_stock_level', args: { sku: 'SKU-1002' } },
      ],
      usage: { input: 321, output: 45, cached: 64 },
    });
    const r = await converse();
    expect(r.text).toBe('Let me check both.');
    expect(r.toolCalls).toEqual([
      { toolUseId: 'call_a1', name: 'get_stock_level', arguments: { sku: 'SKU-1001' } },
      { toolUseId: 'call_b2', name: 'get_stock_level', arguments: { sku: 'SKU-1002' } },
    ]);
    expect(r).toMatchObject({ stopReason: 'tool_use', finishReason: FINISH[provider].tool, provider });
    expect({ input: r.inputTokens, output: r.outputTokens, cached: r.cachedTokens }).toEqual({ input: 321, output: 45, cached: 64 });
    expect(r.modelId.startsWith(`${provider}:`)).toBe(true);
  });

  it('maps a final answer to end_turn and a truncated one to max_tokens', async () => {
    stub.enqueue({ text: 'SKU-1001 has 7 units.' }, { text: 'SKU-1001 has', stop: FINISH[provider].length });
    const done = await converse();
    expect(done).toMatchObject({ text: 'SKU-1001 has 7 units.', toolCalls: [], stopReason: 'end_turn', finishReason: FINISH[provider].end });
    const cut = await converse();
    expect(cut).toMatchObject({ stopReason: 'max_tokens', finishReason: FINISH[provider].length });
  });

  it('keeps the provider’s own response body (fields the mapping drops included), secret-looking values redacted', async () => {
    const turn = { text: 'SKU-1001 has 7 units.' };
    const wire = provider === 'openai' ? formatOpenAI(turn, 'gpt-4o-mini') : provider === 'anthropic' ? formatAnthropic(turn, 'claude-test') : formatBedrock(turn);
    const body = { ...(wire as Record<string, unknown>), provider_extra: { region: 'eu-x', echo: 'sk-live0123456789abcdefXYZ' } };
    stub.enqueue({ kind: 'raw', body: JSON.stringify(body) });
    const r = await converse();
    expect(r.text).toBe('SKU-1001 has 7 units.');
    expect(r.raw).toEqual({ ...body, provider_extra: { region: 'eu-x', echo: '[REDACTED]' } });
  });

  it('sends the system prompt, the tools and the earlier tool call with its result under the same id', async () => {
    stub.enqueue({ text: 'ok' });
    await converse();
    const sent = JSON.stringify(stub.requests[0]?.body);
    expect(sent).toContain('You are a stock clerk.');
    expect(sent).toContain('get_stock_level');
    expect(sent).toContain('stock of one SKU');
    expect(sent.match(/call_prev/g)?.length).toBe(2); // the call and its result
    expect(sent).toContain('SKU-1001');
  });
});

describe('provider-specific wire details', () => {
  it('OpenAI: malformed tool-call arguments come back as the raw text, not a crash', async () => {
    const stub = await ProviderStub.start('openai');
    try {
      stub.enqueue({ calls: [{ id: 'call_bad', name: 'get_stock_level', args: { raw: '{"sku": "SKU-1001"' } }] });
      const r = await clientFor(stub).converse({ system: 's', messages: CONVERSATION, tools: TOOLS, maxTokens: 10 });
      expect(r.toolCalls[0]).toEqual({ toolUseId: 'call_bad', name: 'get_stock_level', arguments: '{"sku": "SKU-1001"' });
    } finally {
      await stub.close();
    }
  });

  it('OpenAI-compatible: the case id travels as request metadata, and the bearer key is sent', async () => {
    const stub = await ProviderStub.start('openai');
    try {
      const client = new OpenAIModelClient({
        provider: 'openai-compatible',
        model: 'local-model',
        apiKey: 'local-key',
        baseURL: stub.baseURL,
        metadata: { stockroom_case_id: 'G007' },
      });
      await client.converse({ system: 's', messages: CONVERSATION, tools: TOOLS, maxTokens: 10 });
      const req = stub.requests[0]!;
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe('Bearer local-key');
      expect(req.body).toMatchObject({ model: 'local-model', max_tokens: 10, metadata: { stockroom_case_id: 'G007' } });
    } finally {
      await stub.close();
    }
  });

  it('Bedrock: calls /model/{id}/converse signed with SigV4', async () => {
    const stub = await ProviderStub.start('bedrock');
    try {
      await clientFor(stub).converse({ system: 's', messages: CONVERSATION, tools: TOOLS, maxTokens: 10 });
      const req = stub.requests[0]!;
      expect(req.path).toBe('/model/anthropic.claude-test-v1%3A0/converse');
      expect(String(req.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKE\//);
      expect(req.body).toMatchObject({ inferenceConfig: { maxTokens: 10 }, toolConfig: { tools: [{ toolSpec: { name: 'get_stock_level' } }] } });
    } finally {
      await stub.close();
    }
  });
});
