/**
 * Issue 31, "real producers": the multi-agent traces recorded by running each framework
 * (lib/otel/testing/record/record-team.ts: a LangGraph supervisor, an AI SDK sub-agent called as a
 * tool on Google's provider, Strands agents as tools on Bedrock, an OpenAI Agents handoff) import
 * through the real import path as ONE run each, with its agents: names, paths, parents, how each
 * was entered, whose model and tool calls are whose, each agent's own transitions, the provider as
 * sent, and the tokens and cost alike in the header and the sums — on SQLite and PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRunOrThrow } from '../../db/runs/runs-read';
import { describeOnDatabases } from '../../db/testing/on-databases';
import { agentsOf } from '../../harness/agents';
import type { Agent, ModelTurn, RunResult, ToolRecord } from '../../harness/types';
import { HANDOFF_TOOL, TEAM, TEAM_FIXTURE_FILES, TEAM_PRODUCERS, TEAM_SHAPES, teamUsage, type TeamProducer } from '../testing/record/scenario';
import { importSpanRecords } from './import-traces';
import { readOtlpJson } from './read-otlp';
import type { SpanRecord } from './span-record';

const FIXTURES = path.resolve(import.meta.dirname, '../testing/fixtures');

const fixtureSpans = (producer: TeamProducer): Promise<SpanRecord[]> => readOtlpJson([readFileSync(path.join(FIXTURES, TEAM_FIXTURE_FILES[producer].traces))]);
const key = (p: readonly string[]) => p.join(' › ');

type Check = 'run' | 'spans' | 'agents' | 'calls' | 'via' | 'transitions' | 'provider';

/**
 * What the import (i31a @ b9e4217) still gets wrong, asserted as it should be and marked as an
 * expected failure so the suite stays green; a gap that gets fixed makes its check fail until its
 * line here goes. The details: the issue-31 report of branch i31b.
 */
const KNOWN_GAPS: Partial<Record<TeamProducer, Partial<Record<Check, string>>>> = {
};

describeOnDatabases('multi-agent producers imported on $name', ({ provider, db }) => {
  describe.each(TEAM_PRODUCERS)('%s', (producer) => {
    const shape = TEAM_SHAPES[producer];
    const tenant = `team-${producer}`;
    let spans: SpanRecord[];
    let run: RunResult;
    let agents: Agent[];
    let imported: Promise<void> | undefined;
    /** Imports the fixture once, in the first test that needs it (so a refused import fails each test, naming why). */
    const load = () =>
      (imported ??= (async () => {
        spans = await fixtureSpans(producer);
        const result = await importSpanRecords(spans, { tenant, db });
        expect(result.runs).toHaveLength(1);
        run = (await getRunOrThrow(result.runs[0]!.id, db)).run;
        agents = agentsOf(run);
      })());
    const pathOf = (step: { agent?: number }) => key(agents[step.agent ?? 0]?.path ?? ['?']);
    const turns = () => run.trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
    const tools = () => run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');
    const check = (id: Check, title: string, fn: () => Promise<void>) => (provider.skipReason ? it.skip : KNOWN_GAPS[producer]?.[id] ? it.fails : it)(title, fn);

    check('run', 'is one finished run with the question, the answer and every model call’s tokens; sent again, it adds nothing', async () => {
      await load();
      expect(run.status).toBe('finished');
      expect(run.query).toBe(TEAM.question);
      expect(run.finalAnswer).toBe(TEAM.answer);
      const calls = shape.agents.reduce((n, a) => n + a.modelCalls, 0);
      const scripted = Array.from({ length: calls }, (_, n) => teamUsage(n));
      expect(turns()).toHaveLength(calls);
      expect(run.usage.inputTokens).toBe(scripted.reduce((n, u) => n + u.input, 0));
      expect(run.usage.outputTokens).toBe(scripted.reduce((n, u) => n + u.output, 0));
      const again = await importSpanRecords(spans, { tenant, db });
      expect(again).toMatchObject({ runs: [], duplicateSpans: spans.length });
    });

    check('spans', 'sent one span per request, children before their parents (a SimpleSpanProcessor’s order), is still one run with the same agents', async () => {
      await load();
      const retraced = spans.map((s) => ({ ...s, traceId: s.traceId.replace(/^.{4}/, 'beef') }));
      const ids = new Set<string>();
      // Spans end (and are exported) children first: by end time.
      for (const span of [...retraced].sort((a, b) => (a.endNs < b.endNs ? -1 : a.endNs > b.endNs ? 1 : 0))) {
        for (const r of (await importSpanRecords([span], { tenant: `${tenant}-spans`, db })).runs) ids.add(r.id);
      }
      expect(ids.size).toBe(1);
      const again = agentsOf((await getRunOrThrow([...ids][0]!, db)).run);
      expect(again.map((a) => [key(a.path), a.entered])).toEqual(agents.map((a) => [key(a.path), a.entered]));
    });

    check('agents', 'has the team’s agents: names, paths, the root, each one’s parent and how it was entered', async () => {
      await load();
      expect(agents[0]).toMatchObject({ name: TEAM.planner.name, path: [TEAM.planner.name], parent: null, entered: 'root' });
      expect([...new Set(agents.map((a) => key(a.path)))].sort()).toEqual(shape.agents.map((a) => key(a.path)).sort());
      for (const expected of shape.agents) {
        const invocations = agents.filter((a) => key(a.path) === key(expected.path));
        for (const a of invocations) {
          expect({ agent: key(a.path), name: a.name, entered: a.entered }).toEqual({ agent: key(expected.path), name: expected.path.at(-1), entered: expected.entered });
          if (expected.entered === 'root') continue;
          expect({ agent: key(a.path), parent: a.parent === null ? null : key(agents[a.parent]!.path) }).toEqual({ agent: key(a.path), parent: key(expected.path.slice(0, -1)) });
        }
        expect({ agent: key(expected.path), modelCalls: invocations.reduce((n, a) => n + a.rollup.modelCalls, 0) }).toEqual({ agent: key(expected.path), modelCalls: expected.modelCalls });
      }
    });

    check('calls', 'gives every model call and tool call to the agent that made it', async () => {
      await load();
      const callsByAgent = Object.fromEntries(shape.agents.map((a) => [key(a.path), turns().filter((s) => pathOf(s) === key(a.path)).length]));
      expect(callsByAgent).toEqual(Object.fromEntries(shape.agents.map((a) => [key(a.path), a.modelCalls])));
      const toolsByAgent = Object.fromEntries(shape.agents.map((a) => [key(a.path), tools().filter((s) => pathOf(s) === key(a.path) && !HANDOFF_TOOL.test(s.name)).map((s) => s.name)]));
      expect(toolsByAgent).toEqual(Object.fromEntries(shape.agents.map((a) => [key(a.path), [...a.tools]])));
      // The inventory checker's report (after a handoff, the run's answer) is its own model call, not its caller's.
      const reportText = shape.agents.some((a) => a.entered === 'handoff' && a.path.at(-1) === TEAM.checker.name && producer === 'openai-agents-handoff') ? TEAM.answer : TEAM.checkerAnswer;
      const report = turns().find((s) => s.text === reportText);
      expect(report && pathOf(report)).toBe(key([TEAM.planner.name, TEAM.checker.name]));
    });

    check('via', 'links an agent called as a tool to the tool call it ran under', async () => {
      await load();
      expect(agents.filter((x) => x.entered === 'tool').map((x) => x.name)).toEqual(shape.agents.filter((x) => x.entered === 'tool').map((x) => x.path.at(-1)));
      for (const a of agents.filter((x) => x.entered === 'tool')) {
        const call = tools().find((s) => s.toolUseId === a.via?.toolUseId);
        expect({ agent: a.name, calledAs: call?.name, by: call && pathOf(call) }).toEqual({ agent: a.name, calledAs: a.name, by: key(a.path.slice(0, -1)) });
      }
    });

    check('transitions', 'keeps each agent’s own transitions, none after its DONE or FAILED', async () => {
      await load();
      for (const a of agents) {
        const end = a.transitions.findIndex((s) => s.to === 'DONE' || s.to === 'FAILED');
        expect({ agent: key(a.path), after: end === -1 ? 0 : a.transitions.length - 1 - end }).toEqual({ agent: key(a.path), after: 0 });
      }
      expect(run.transitions).toEqual(agents[0]!.transitions);
    });

    check('provider', 'keeps the provider as sent, normalised where the spans name one, and one cost in the header and every sum', async () => {
      await load();
      for (const turn of turns()) {
        expect(turn.provider).toBe(shape.provider);
        // providerId absent means the same as provider (lib/harness/types.ts).
        if (shape.providerId) expect(turn.providerId ?? turn.provider).toBe(shape.providerId);
        expect(turn.costUsd === null ? turn.costNote : 'priced').toBeTruthy();
      }
      const perCall = turns().map((s) => s.costUsd ?? null);
      const sum = (xs: Array<number | null>) => (xs.some((x) => x === null) ? null : xs.reduce<number>((n, x) => n + x!, 0));
      const header = run.costEstimate.known === false ? null : run.costEstimate.usd;
      expect(header === null ? null : Number(header.toFixed(12))).toBe(sum(perCall) === null ? null : Number(sum(perCall)!.toFixed(12)));
      const byAgents = sum(agents.map((a) => a.rollup.costUsd));
      expect(byAgents === null ? null : Number(byAgents.toFixed(12))).toBe(header === null ? null : Number(header.toFixed(12)));
    });
  });
});
