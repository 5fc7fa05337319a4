/**
 * `npm run bench -- --only deadlines` (issue 22 §4): how long after its wall-clock limit, or after a
 * cancel, a live run really ends while it waits on a provider stub that never answers or that asks
 * for a 30 s Retry-After. Measures, never asserts.
 */
import { resolveConfig } from '../harness';
import { createStockroomAgent } from '../stockroom';
import { defaultDatasetDir, loadDataset } from '../stockroom';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { ProviderStub } from './testing/stub-server';
import type { ModelsFigure } from './bench-models';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const DEADLINE_S = 1;
const CANCEL_AFTER_MS = 500;

export async function benchDeadlines(repeat = 3): Promise<ModelsFigure[]> {
  const dataset = loadDataset(defaultDatasetDir());
  const stub = await ProviderStub.start('openai');
  /** Ms from the deadline (or the cancel) to the run's end. */
  const lateness = async (reply: 'hang' | 'retry-after', cancel: boolean): Promise<number> => {
    stub.reset();
    resetBreakers();
    stub.respondWith(() => (reply === 'hang' ? { kind: 'hang' } : { kind: 'error', status: 429, headers: { 'retry-after': '30' } }));
    const config = resolveConfig({ model: 'openai:bench', modelBaseUrl: stub.baseURL, wallClockTimeoutS: cancel ? 600 : DEADLINE_S });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: { OPENAI_API_KEY: 'bench' } }) });
    const controller = new AbortController();
    const t0 = performance.now();
    let due = t0 + DEADLINE_S * 1000;
    if (cancel) {
      due = t0 + CANCEL_AFTER_MS;
      setTimeout(() => controller.abort(), CANCEL_AFTER_MS);
    }
    try {
      await agent.run('How many SKU-1001 are in stock?', null, { signal: controller.signal });
    } finally {
      await agent.close();
    }
    return performance.now() - due;
  };
  try {
    const figure = async (name: string, reply: 'hang' | 'retry-after', cancel: boolean, target: string): Promise<ModelsFigure> => {
      const samples: number[] = [];
      for (let i = 0; i < repeat; i++) samples.push(await lateness(reply, cancel));
      return { name, value: Math.round(median(samples)), unit: 'ms', target };
    };
    return [
      await figure('run end after its deadline: provider never answers', 'hang', false, '≤ 1000 ms'),
      await figure('run end after its deadline: in a Retry-After: 30 wait', 'retry-after', false, '≤ 1000 ms'),
      await figure('run end after a cancel (Ctrl-C, Stop): in a Retry-After: 30', 'retry-after', true, '≤ 2000 ms'),
    ];
  } finally {
    await stub.close();
  }
}
