/**
 * `npm run bench -- --only streaming [--json]` (issue 40): what streaming costs beyond the wire, per
 * call, on each provider against its local stub — a streamed call through the client (SDK, event
 * parsing, assembly, mapping) less reading the very same bytes with a bare fetch — and how long a
 * 10,000-chunk answer takes to assemble (in memory, and end to end over the stub). Measures, never
 * asserts; the load average is printed beside the figures (the machine is shared).
 */
import os from 'node:os';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import type { ModelClient } from '../harness';
import { resolveConfig } from '../harness';
import { createStockroomAgent, defaultDatasetDir, loadDataset } from '../stockroom';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { STUB_CREDENTIALS } from './testing/stub-server';
import { AnthropicModelClient } from './anthropic-client';
import { readMessageStream } from './anthropic-stream';
import { BedrockModelClient } from './bedrock-client';
import { readConverseStream } from './bedrock-stream';
import { OpenAIModelClient } from './openai-client';
import { readChatStream } from './openai-stream';
import { StreamTap } from './stream-tap';
import { ProviderStub, type StubProvider } from './testing/stub-server';
import type { ModelsFigure } from './bench-models';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const round = (x: number, d = 2) => Number(x.toFixed(d));
const CALLS_PER_SAMPLE = 40;
const CHUNKS = 10_000;
/** A typical answer: a sentence of text and one tool call, in 4-character pieces (~70 events). */
const ANSWER = { text: 'Checking the stock levels of both SKUs for you now, one moment please.', calls: [{ id: 'call_1', name: 'get_stock_level', args: { sku: 'SKU-1001', warehouse: 'north' } }], piece: 4 };

function clientFor(stub: ProviderStub, stream: boolean): ModelClient {
  switch (stub.provider) {
    case 'openai':
      return new OpenAIModelClient({ provider: 'openai', model: 'bench', apiKey: 'bench', baseURL: stub.baseURL, stream });
    case 'anthropic':
      return new AnthropicModelClient({ model: 'bench', apiKey: 'bench', baseURL: stub.baseURL, stream });
    case 'bedrock':
      return new BedrockModelClient({ model: 'bench', region: 'us-east-1', endpoint: stub.baseURL, credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'x' }, stream });
  }
}

const REQUEST = { system: 'You are a stock clerk.', messages: [{ role: 'user' as const, content: [{ text: 'How many?' }] }], tools: [], maxTokens: 256 };

/** Ms per call: the streamed client, a bare fetch reading the same streamed bytes to the end, and the client asking for the answer whole. */
async function perCall(provider: StubProvider, repeat: number): Promise<{ client: number; wire: number; whole: number }> {
  const stub = await ProviderStub.start(provider);
  try {
    stub.respondWith(() => ANSWER);
    const client = clientFor(stub, true);
    const wholeClient = clientFor(stub, false);
    // The bytes the client asked for, asked for again by fetch (the stub answers from the request, not the caller).
    await client.converse(REQUEST);
    const sent = stub.requests[0]!;
    const url = `${stub.origin}${sent.path}`;
    const body = JSON.stringify(sent.body);
    const wire = async () => {
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.arrayBuffer();
    };
    for (let i = 0; i < 10; i++) {
      await client.converse(REQUEST);
      await wire();
    }
    const clientSamples: number[] = [];
    const wireSamples: number[] = [];
    const wholeSamples: number[] = [];
    for (let r = 0; r < repeat; r++) {
      let t0 = performance.now();
      for (let i = 0; i < CALLS_PER_SAMPLE; i++) await client.converse(REQUEST);
      clientSamples.push((performance.now() - t0) / CALLS_PER_SAMPLE);
      t0 = performance.now();
      for (let i = 0; i < CALLS_PER_SAMPLE; i++) await wire();
      wireSamples.push((performance.now() - t0) / CALLS_PER_SAMPLE);
      t0 = performance.now();
      for (let i = 0; i < CALLS_PER_SAMPLE; i++) await wholeClient.converse(REQUEST);
      wholeSamples.push((performance.now() - t0) / CALLS_PER_SAMPLE);
    }
    return { client: median(clientSamples), wire: median(wireSamples), whole: median(wholeSamples) };
  } finally {
    await stub.close();
  }
}

async function* iterate<T>(items: readonly T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

/** Ms to assemble a 10,000-chunk answer in memory (the provider's reader and the stream tap, no network). */
async function assembly(provider: StubProvider, repeat: number): Promise<number> {
  const samples: number[] = [];
  const make = (): AsyncIterable<unknown> => {
    if (provider === 'openai') {
      const head = { id: 'c', object: 'chat.completion.chunk' as const, created: 0, model: 'bench' };
      const chunks: ChatCompletionChunk[] = Array.from({ length: CHUNKS }, (_, i) => ({ ...head, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: i === CHUNKS - 1 ? 'stop' : null, logprobs: null }] }));
      return iterate(chunks);
    }
    if (provider === 'anthropic') {
      const events = [
        { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        ...Array.from({ length: CHUNKS - 4 }, () => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } })),
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: CHUNKS } },
        { type: 'message_stop' },
      ] as unknown as RawMessageStreamEvent[];
      return iterate(events);
    }
    const events: ConverseStreamOutput[] = [
      { messageStart: { role: 'assistant' } },
      ...Array.from({ length: CHUNKS - 3 }, (): ConverseStreamOutput => ({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'x' } } })),
      { messageStop: { stopReason: 'end_turn' } },
      { metadata: { usage: { inputTokens: 1, outputTokens: CHUNKS, totalTokens: CHUNKS + 1 }, metrics: { latencyMs: 1 } } },
    ] as ConverseStreamOutput[];
    return iterate(events);
  };
  const read = (stream: AsyncIterable<unknown>) => {
    const tap = new StreamTap(performance.now(), () => undefined);
    if (provider === 'openai') return readChatStream(stream as AsyncIterable<ChatCompletionChunk>, tap, 'openai');
    if (provider === 'anthropic') return readMessageStream(stream as AsyncIterable<RawMessageStreamEvent>, tap);
    return readConverseStream(stream as AsyncIterable<ConverseStreamOutput>, tap);
  };
  await read(make());
  for (let r = 0; r < repeat; r++) {
    const stream = make();
    const t0 = performance.now();
    await read(stream);
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

/** Ms for a 10,000-chunk answer end to end over the stub (request, 10,000 events on the wire, assembly, mapping). */
async function endToEnd(provider: StubProvider, repeat: number): Promise<number> {
  const stub = await ProviderStub.start(provider);
  try {
    stub.respondWith(() => ({ text: 'x'.repeat(CHUNKS), piece: 1 }));
    const client = clientFor(stub, true);
    await client.converse(REQUEST);
    const samples: number[] = [];
    for (let r = 0; r < repeat; r++) {
      const t0 = performance.now();
      await client.converse(REQUEST);
      samples.push(performance.now() - t0);
    }
    return median(samples);
  } finally {
    await stub.close();
  }
}

const MODEL: Record<StubProvider, string> = { openai: 'openai:bench', anthropic: 'anthropic:bench', bedrock: 'bedrock:bench' };

/** Ms from a Stop (at the answer's first piece) to the run's end, while the provider's stream stalls. */
async function stopLateness(provider: StubProvider, repeat: number): Promise<number> {
  const dataset = loadDataset(defaultDatasetDir());
  const stub = await ProviderStub.start(provider);
  try {
    const samples: number[] = [];
    for (let r = 0; r < repeat; r++) {
      stub.reset();
      resetBreakers();
      stub.enqueue({ kind: 'stream-fault', fault: 'stall', after: 4, text: 'Stalls after a few pieces', piece: 3 });
      const config = resolveConfig({ model: MODEL[provider], modelBaseUrl: stub.baseURL, stream: true });
      const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: STUB_CREDENTIALS[provider] }) });
      const controller = new AbortController();
      let stoppedAt = 0;
      const stop = () => {
        if (stoppedAt) return;
        stoppedAt = performance.now();
        controller.abort();
      };
      try {
        await agent.run('How many SKU-1001 are in stock?', null, { signal: controller.signal, onModelText: stop });
      } finally {
        await agent.close();
      }
      samples.push(performance.now() - stoppedAt);
    }
    return median(samples);
  } finally {
    await stub.close();
  }
}

export async function benchStreaming(repeat = 5): Promise<ModelsFigure[]> {
  const figures: ModelsFigure[] = [];
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  figures.push({ name: 'load average (1, 5, 15 min) at the start', value: round(os.loadavg()[0]!), unit: '', detail: load() });
  for (const provider of ['openai', 'anthropic', 'bedrock'] as const) {
    const { client, wire, whole } = await perCall(provider, repeat);
    figures.push({
      name: `${provider}: streaming overhead per call beyond the wire`,
      value: round(client - wire),
      unit: 'ms',
      target: '≤ 3 ms',
      detail: `streamed client ${round(client)} ms, bare fetch of the same bytes ${round(wire)} ms, the same answer asked for whole ${round(whole)} ms`,
    });
  }
  for (const provider of ['openai', 'anthropic', 'bedrock'] as const) {
    figures.push({ name: `${provider}: 10,000-chunk answer assembled (in memory)`, value: round(await assembly(provider, Math.max(repeat, 9))), unit: 'ms', target: '≤ 50 ms' });
  }
  for (const provider of ['openai', 'anthropic', 'bedrock'] as const) {
    figures.push({ name: `${provider}: 10,000-chunk answer end to end over the stub`, value: round(await endToEnd(provider, Math.min(repeat, 3))), unit: 'ms' });
  }
  for (const provider of ['openai', 'anthropic', 'bedrock'] as const) {
    figures.push({ name: `${provider}: run end after a Stop while the answer streams (stalled)`, value: round(await stopLateness(provider, Math.min(repeat, 3))), unit: 'ms', target: '≤ 1000 ms' });
  }
  figures.push({ name: 'load average (1, 5, 15 min) at the end', value: round(os.loadavg()[0]!), unit: '', detail: load() });
  return figures;
}
