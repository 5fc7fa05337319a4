/**
 * A new session with a tool server (the server had ended the executor's old one) leaves with the run
 * as a `stockroom.tool_session` root-span event and comes back on import, in place before the call it
 * was opened for; the loop records it from what the executor tells the call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import type { ToolExecutor } from '../harness/executor';
import { runHarness } from '../harness/loop/run';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { RunResult } from '../harness/types';
import { readOtlpJson } from './import/read-otlp';
import { traceToRun } from './import/trace-to-run';
import { planRunSpans } from './run-spans';
import { createRunTraceExporter } from './sdk-exporter';
import { startOtlpTestReceiver, type OtlpTestReceiver } from './testing/otlp-test-receiver';

const RENEWAL = { server: 'inventory', reason: 'session_ended' as const, detail: 'the server answered HTTP 404 for the session; a new session was opened' };

/** An executor whose second call was answered in a new session (as the MCP executor tells it). */
function renewingExecutor(): ToolExecutor {
  let calls = 0;
  return {
    transport: 'test',
    listSpecs: async () => [{ name: 'count', description: 'counts', inputSchema: { type: 'object', properties: {} } }],
    call: async (_name, _args, context) => {
      calls += 1;
      if (calls === 2) context?.onSessionRenewed?.(RENEWAL);
      return { content: { n: calls }, isError: false, errorCode: null, payloadChars: 8 };
    },
    reset: async () => {},
    close: async () => {},
  };
}

async function renewedRun(): Promise<RunResult> {
  const model = scriptedModel([{ calls: [['count', {}]] }, { calls: [['count', {}]] }, { text: 'two' }]);
  return runHarness({ query: 'count twice' }, { config: resolveConfig({}), executor: renewingExecutor(), model, systemPrompt: 's' });
}

let receiver: OtlpTestReceiver;
beforeAll(async () => {
  receiver = await startOtlpTestReceiver();
});
afterAll(() => receiver.close());

describe('a new tool-server session in a run', () => {
  it('is recorded before the call it was opened for', async () => {
    const run = await renewedRun();
    const tail = run.trajectory.filter((s) => s.kind !== 'model_turn');
    expect(tail.map((s) => s.kind)).toEqual(['tool_call', 'tool_session', 'tool_call']);
    expect(tail[1]).toEqual({ kind: 'tool_session', step: 2, toolUseId: (tail[2] as { toolUseId: string }).toolUseId, name: 'count', ...RENEWAL });
  });

  it('is exported on the root span and imported back in place', async () => {
    const run = await renewedRun();
    const event = planRunSpans(run, { captureContent: false }).events.find((e) => e.name === 'stockroom.tool_session');
    expect(event?.attributes).toMatchObject({ 'stockroom.tool_session.server': 'inventory', 'stockroom.tool_session.reason': 'session_ended', 'stockroom.tool_session.tool': 'count' });

    const exporter = createRunTraceExporter({ tracesUrl: `${receiver.endpoint}/v1/traces`, protocol: 'http/json', serviceName: 'session-export', captureContent: true, headers: {}, timeoutMillis: 1000 }, () => {});
    exporter.exportRun(run, { datasetName: 'sessions' });
    await exporter.flush();
    await exporter.shutdown();
    const spans = (await Promise.all(receiver.requests.map((r) => readOtlpJson([r.body])))).flat();
    const back = traceToRun(spans)!.run.trajectory.filter((s) => s.kind !== 'model_turn');
    expect(back.map((s) => s.kind)).toEqual(['tool_call', 'tool_session', 'tool_call']);
    expect(back[1]).toMatchObject({ kind: 'tool_session', step: 2, name: 'count', ...RENEWAL });
  });
});
