/**
 * Issue 31: a multi-agent trace imports as a tree — each agent its own transitions (none after its
 * DONE), every call knowing its agent, the planner's tool call on the planner's model call, every
 * span's times kept, cost the same in the header and the calls — plus agents called as tools,
 * handoffs, parallel branches, OpenInference AGENT spans with graph.node ids, and bad input.
 */
import { describe, expect, it } from 'vitest';
import { agentLabel, subtreeRollup } from '../../harness/agents';
import type { ModelTurn, RunResult, SpanStep, ToolRecord } from '../../harness/types';
import { RunResultSchema } from '../../harness/types';
import { agentSpan, otlpDocument, plannerTrace, spanIdOf, type SpanSpec } from '../testing/agent-traces';
import { readOtlpJsonText } from './read-otlp';
import { traceToRun } from './trace-to-run';

function runOf(spans: SpanSpec[], seed = 'tree'): RunResult {
  const records = readOtlpJsonText(JSON.stringify(otlpDocument([{ seed, spans }])));
  const imported = traceToRun(records);
  expect(imported).not.toBeNull();
  expect(RunResultSchema.safeParse(imported!.run).success).toBe(true);
  return imported!.run;
}

const turnsOf = (run: RunResult) => run.trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
const toolsOf = (run: RunResult) => run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');

describe('the issue’s planner and sub-agent', () => {
  const run = runOf(plannerTrace());

  it('makes the sub-agent an agent of the run, not a step', () => {
    expect(run.agents?.map(agentLabel)).toEqual(['planner', 'planner › inventory-checker']);
    expect(run.agents?.[1]).toMatchObject({ parent: 0, entered: 'delegate' });
    expect(run.trajectory.some((s) => s.kind === 'guard' || s.kind === 'span')).toBe(false);
  });

  it('gives each agent its own transitions, none after its own DONE', () => {
    for (const agent of run.agents!) {
      const done = agent.transitions.findIndex((t) => t.to === 'DONE' || t.to === 'FAILED');
      expect(done).toBe(agent.transitions.length - 1);
    }
    expect(run.transitions).toEqual(run.agents![0]!.transitions);
    expect(run.agents![0]!.transitions.map((t) => `${t.from}→${t.to}`)).toEqual(['PLAN→CALL_MODEL', 'CALL_MODEL→EXECUTE_TOOLS', 'EXECUTE_TOOLS→OBSERVE', 'OBSERVE→CALL_MODEL', 'CALL_MODEL→DONE']);
    expect(run.agents!.map((a) => a.rollup.outcome)).toEqual(['completed', 'completed']);
  });

  it('attaches the planner’s create_restock_request to the planner’s own model call', () => {
    const restock = toolsOf(run).find((t) => t.name === 'create_restock_request')!;
    const turn = turnsOf(run).find((t) => t.step === restock.step)!;
    expect(restock.agent).toBe(0);
    expect(turn.agent).toBe(0);
    expect(turn.toolCalls.map((c) => c.name)).toEqual(['create_restock_request']);
    const subTurns = turnsOf(run).filter((t) => t.agent === 1);
    expect(subTurns.flatMap((t) => t.toolCalls.map((c) => c.name))).toEqual(['get_stock_level']);
  });

  it('says which agent made each call, and keeps every span’s recorded times', () => {
    expect(turnsOf(run).map((t) => t.agent)).toEqual([1, 1, 0, 0]);
    expect(toolsOf(run).map((t) => t.agent)).toEqual([1, 0]);
    expect(run.trajectory.every((s) => 'time' in s && s.time !== undefined)).toBe(true);
    expect(run.agents!.every((a) => a.time !== undefined)).toBe(true);
    expect(run.agents![1]!.time).toMatchObject({ startMs: 10, endMs: 400 });
    expect(run.trajectory.every((s) => s.spanId !== undefined)).toBe(true);
  });

  it('prices each call and sums the same figure in the header, the calls and the agents', () => {
    const calls = turnsOf(run).map((t) => t.costUsd);
    expect(calls.every((c) => typeof c === 'number' && c > 0)).toBe(true);
    const sum = calls.reduce((n: number, c) => n + c!, 0);
    expect(run.costEstimate.usd).toBeCloseTo(sum, 12);
    expect(subtreeRollup(run.agents!, 0).costUsd).toBeCloseTo(sum, 12);
  });
});

describe('a model without a price', () => {
  it('costs null with a note naming it in the header, every call and every agent — never a throw', () => {
    const run = runOf(plannerTrace('gcp.gemini', 'gemini-9-imaginary'));
    expect(run.costEstimate).toMatchObject({ usd: null, known: false });
    expect(run.costEstimate.note).toContain('google:gemini-9-imaginary');
    for (const t of turnsOf(run)) expect([t.costUsd, t.provider, t.providerId, t.model]).toEqual([null, 'gcp.gemini', 'google', 'gemini-9-imaginary']);
    for (const a of run.agents!) expect(a.rollup.costUsd).toBeNull();
  });
});

describe('other shapes of tree', () => {
  it('reads an agent under a tool span as an agent called as a tool', () => {
    const spans: SpanSpec[] = [
      agentSpan('boss', null, 0, 500, 'boss'),
      { id: 'c1', parent: 'boss', name: 'chat m', start: 5, end: 50, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' } },
      { id: 'tool', parent: 'boss', name: 'execute_tool ask_helper', start: 60, end: 400, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ask_helper', 'gen_ai.tool.call.id': 'call-h' } },
      agentSpan('helper', 'tool', 70, 390, 'helper'),
      { id: 'c2', parent: 'helper', name: 'chat m', start: 80, end: 380, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' } },
    ];
    const run = runOf(spans, 'as-tool');
    expect(run.agents![1]).toMatchObject({ name: 'helper', entered: 'tool', parent: 0, via: { toolUseId: 'call-h', spanId: spanIdOf('as-tool', 'tool') } });
    expect(toolsOf(run).map((t) => [t.name, t.agent])).toEqual([['ask_helper', 0]]);
  });

  it('reads top-level agents that ran one after another as handoffs, and overlapping siblings as a parallel branch', () => {
    const chatIn = (id: string, parent: string, start: number): SpanSpec => ({ id, parent, name: 'chat', start, end: start + 10, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' } });
    const handoff = runOf(
      [
        { id: 'wf', parent: null, name: 'Agent workflow', start: 0, end: 300, attributes: { 'openinference.span.kind': 'CHAIN' } },
        agentSpan('triage', 'wf', 0, 100, 'triage'),
        chatIn('t1', 'triage', 10),
        agentSpan('refund', 'wf', 110, 290, 'refund'),
        chatIn('r1', 'refund', 120),
      ],
      'handoff',
    );
    expect(handoff.agents!.map((a) => [agentLabel(a), a.entered])).toEqual([
      ['triage', 'root'],
      ['triage › refund', 'handoff'],
    ]);
    expect(handoff.agents![0]!.rollup.outcome).toBe('handed_off');
    const parallel = runOf(
      [agentSpan('lead', null, 0, 300, 'lead'), agentSpan('a', 'lead', 10, 200, 'searcher'), chatIn('a1', 'a', 20), agentSpan('b', 'lead', 15, 210, 'summariser'), chatIn('b1', 'b', 30), agentSpan('c', 'lead', 220, 290, 'writer'), chatIn('c1', 'c', 230)],
      'parallel',
    );
    const [, a, b, c] = parallel.agents!;
    expect(a!.parallelGroup).not.toBeNull();
    expect(a!.parallelGroup).toBe(b!.parallelGroup);
    expect(c!.parallelGroup).toBeNull();
  });

  it('reads OpenInference AGENT spans and graph.node.parent_id as agents, and each other kind as what it is', () => {
    const oi = (kind: string, extra: Record<string, string | number> = {}) => ({ 'openinference.span.kind': kind, ...extra });
    const run = runOf(
      [
        { id: 'sup', parent: null, name: 'supervisor', start: 0, end: 500, attributes: oi('AGENT', { 'graph.node.id': 'supervisor' }) },
        { id: 'llm', parent: 'sup', name: 'ChatOpenAI', start: 5, end: 40, attributes: oi('LLM', { 'llm.provider': 'mistralai', 'llm.model_name': 'mistral-large-latest', 'llm.token_count.prompt': 10, 'llm.token_count.completion': 5 }) },
        // A node whose span is not nested under the supervisor's but names it as its graph parent.
        { id: 'res', parent: null, name: 'researcher', start: 50, end: 300, attributes: oi('AGENT', { 'graph.node.id': 'researcher', 'graph.node.parent_id': 'supervisor' }) },
        { id: 'llm2', parent: 'res', name: 'ChatOpenAI', start: 60, end: 90, attributes: oi('LLM', { 'llm.provider': 'mistralai', 'llm.model_name': 'mistral-large-latest' }) },
        { id: 'ret', parent: 'res', name: 'retrieve', start: 100, end: 120, attributes: oi('RETRIEVER', { 'input.value': 'low stock', 'retrieval.documents.0.document.id': 'd1', 'retrieval.documents.0.document.content': 'A-1 low', 'retrieval.documents.0.document.score': 0.9, 'retrieval.documents.1.document.id': 'd2', 'retrieval.documents.1.document.score': 0.4 }) },
        { id: 'emb', parent: 'res', name: 'embed', start: 121, end: 125, attributes: oi('EMBEDDING') },
        { id: 'rr', parent: 'res', name: 'rerank', start: 126, end: 130, attributes: oi('RERANKER', { 'reranker.output_documents.0.document.id': 'd1', 'reranker.output_documents.0.document.score': 0.95 }) },
        { id: 'gr', parent: 'res', name: 'check', start: 131, end: 135, attributes: oi('GUARDRAIL') },
        { id: 'ev', parent: 'res', name: 'judge', start: 136, end: 140, attributes: oi('EVALUATOR') },
        { id: 'ch', parent: 'res', name: 'plan', start: 141, end: 145, attributes: oi('CHAIN') },
        { id: 'x', parent: 'res', name: 'db.query', start: 146, end: 150, attributes: { 'db.system': 'sqlite' } },
        { id: 'ca', parent: 'sup', name: 'create_agent helper', start: 301, end: 302, attributes: { 'gen_ai.operation.name': 'create_agent', 'gen_ai.agent.name': 'helper' } },
      ],
      'oi',
    );
    expect(run.agents!.map(agentLabel)).toEqual(['supervisor', 'supervisor › researcher']);
    expect(run.agents![1]!.externalId).toBe('researcher');
    const spans = run.trajectory.filter((s): s is SpanStep => s.kind === 'span');
    expect(spans.map((s) => s.spanKind)).toEqual(['retriever', 'embedding', 'reranker', 'guardrail', 'evaluator', 'chain', 'custom', 'create_agent']);
    expect(spans[0]!.documents).toEqual([
      { id: 'd1', content: 'A-1 low', score: 0.9 },
      { id: 'd2', content: null, score: 0.4 },
    ]);
    expect(spans[0]!.input).toBe('low stock');
    expect(spans[2]!.documents).toEqual([{ id: 'd1', content: null, score: 0.95 }]);
    expect(spans[6]!.attributes).toEqual({ 'db.system': 'sqlite' });
    expect(spans.every((s) => s.time !== undefined)).toBe(true);
    expect(run.trajectory.some((s) => s.kind === 'guard')).toBe(false);
    expect(turnsOf(run).map((t) => [t.agent, t.providerId])).toEqual([
      [0, 'mistral'],
      [1, 'mistral'],
    ]);
  });
});

describe('bad input: the best tree, what was set aside named, nothing lost', () => {
  const chatUnder = (id: string, parent: string | null, start: number): SpanSpec => ({ id, parent, name: `chat ${id}`, start, end: start + 5, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' } });

  it('cuts a cycle in parent ids and keeps every span', () => {
    const run = runOf([agentSpan('root', null, 0, 100, 'root'), { ...agentSpan('a', 'b', 10, 50, 'a') }, { ...agentSpan('b', 'a', 12, 48, 'b') }, chatUnder('c1', 'a', 20), chatUnder('c2', 'b', 30)], 'cycle');
    expect(run.setAside?.map((s) => [s.reason, s.action])).toEqual([['cycle', 'kept']]);
    expect(turnsOf(run)).toHaveLength(2);
    expect(run.agents!.map((a) => a.name).sort()).toEqual(['a', 'b', 'root']);
  });

  it('keeps a span whose parent never arrives under the root, and names it', () => {
    const run = runOf([agentSpan('root', null, 0, 100, 'root'), chatUnder('c1', 'root', 10), chatUnder('c2', 'ghost', 20)], 'orphan');
    expect(run.setAside).toMatchObject([{ reason: 'missing_parent', action: 'kept', spanId: spanIdOf('orphan', 'c2') }]);
    expect(turnsOf(run).map((t) => t.agent)).toEqual([0, 0]);
  });

  it('keeps the first of a span id sent twice with different content, and names the other', () => {
    const spans = [agentSpan('root', null, 0, 100, 'root'), chatUnder('c1', 'root', 10), { ...chatUnder('c1', 'root', 10), name: 'chat changed' }, chatUnder('c2', 'root', 30)];
    const run = runOf(spans, 'dup');
    expect(run.setAside).toMatchObject([{ reason: 'duplicate_span', action: 'dropped', name: 'chat changed' }]);
    expect(turnsOf(run)).toHaveLength(2);
  });

  it('takes agents nested 200 deep without a stack overflow, folding those past the limit into their ancestor', () => {
    const spans: SpanSpec[] = [];
    for (let i = 0; i < 200; i++) {
      spans.push(agentSpan(`a${i}`, i === 0 ? null : `a${i - 1}`, i, 1000 - i, `agent-${i}`));
      spans.push(chatUnder(`c${i}`, `a${i}`, i + 0.5));
    }
    const run = runOf(spans, 'deep');
    expect(turnsOf(run)).toHaveLength(200);
    expect(run.agents!.length).toBeGreaterThan(1);
    expect(run.setAside!.every((s) => s.reason === 'too_deep' && s.action === 'kept')).toBe(true);
    expect(run.agents!.length + run.setAside!.length).toBe(200);
  });

  it('cuts a 10 kB agent name and names the cut', () => {
    const run = runOf([agentSpan('root', null, 0, 100, 'x'.repeat(10_000)), chatUnder('c1', 'root', 10)], 'long');
    expect(run.agents![0]!.name.length).toBeLessThan(300);
    expect(run.setAside).toMatchObject([{ reason: 'name_too_long', action: 'kept' }]);
  });
});

describe('multi-agent frameworks that say so only by convention', () => {
  const oi = (kind: string, extra: Record<string, string | number> = {}) => ({ 'openinference.span.kind': kind, ...extra });
  const llm = (id: string, parent: string, start: number) => ({ id, parent, name: 'model', start, end: start + 5, attributes: oi('LLM', { 'llm.system': 'openai', 'llm.model_name': 'gpt-4o-mini' }) });

  it('takes an AGENT span with no graph.node.id above node agents for the workflow, and a handoff tool with graph.node.parent_id for a handoff', () => {
    const run = runOf(
      [
        { id: 'wf', parent: null, name: 'Support run', start: 0, end: 200, attributes: oi('AGENT', { 'input.value': JSON.stringify([{ role: 'system', content: 'be kind' }, { role: 'user', content: 'refund order 7' }]), 'output.value': 'refunded' }) },
        { id: 'tri', parent: 'wf', name: 'triage', start: 1, end: 50, attributes: oi('AGENT', { 'graph.node.id': 'triage' }) },
        llm('l1', 'tri', 2),
        { id: 'ho', parent: 'tri', name: 'handoff to billing', start: 10, end: 11, attributes: oi('TOOL', { 'tool.name': 'transfer_to_billing' }) },
        { id: 'bil', parent: 'wf', name: 'billing', start: 60, end: 190, attributes: oi('AGENT', { 'graph.node.id': 'billing', 'graph.node.parent_id': 'triage' }) },
        llm('l2', 'bil', 61),
      ],
      'workflow',
    );
    expect(run.agents!.map((a) => [agentLabel(a), a.entered])).toEqual([
      ['triage', 'root'],
      ['triage › billing', 'handoff'],
    ]);
    expect(run.query).toBe('refund order 7');
    expect(run.finalAnswer).toBe('refunded');
  });

  it('finds LangGraph nodes (metadata.langgraph_node, under the graph span, a model call below); plumbing stays spans, a node run again keeps its place', () => {
    const meta = (node: string, extra: Record<string, string> = {}) => JSON.stringify({ langgraph_node: node, ...extra });
    const node = (id: string, name: string, start: number) => [
      { id, parent: 'g', name, start, end: start + 40, attributes: oi('CHAIN', { metadata: meta(name) }) },
      { id: `${id}-a`, parent: id, name: 'agent', start: start + 1, end: start + 30, attributes: oi('CHAIN', { metadata: meta('agent') }) },
      { id: `${id}-l`, parent: `${id}-a`, name: 'ChatModel', start: start + 2, end: start + 20, attributes: oi('LLM', { 'llm.model_name': 'claude-haiku-4-5', metadata: meta('agent', { ls_provider: 'anthropic' }) }) },
    ];
    const run = runOf(
      [
        { id: 'g', parent: null, name: 'Graph', start: 0, end: 300, attributes: oi('CHAIN', { 'input.value': JSON.stringify({ messages: [{ role: 'user', content: 'plan the week' }] }), 'output.value': JSON.stringify({ messages: [{ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'plan the week' } }, { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs: { content: 'done' } }] }) }) },
        { id: 's', parent: 'g', name: '__start__', start: 1, end: 2, attributes: oi('CHAIN', { metadata: meta('__start__') }) },
        ...node('n1', 'lead', 10),
        { id: 'tt', parent: 'n1-a', name: 'transfer_to_writer', start: 25, end: 26, attributes: oi('TOOL', { 'tool.name': 'transfer_to_writer' }) },
        ...node('n2', 'writer', 60),
        ...node('n3', 'lead', 120),
      ],
      'langgraph',
    );
    expect(run.agents!.map((a) => [agentLabel(a), a.entered])).toEqual([
      ['lead', 'root'],
      ['lead › writer', 'handoff'],
      ['lead', 'root'],
    ]);
    expect(turnsOf(run).map((t) => [t.agent ?? 0, t.providerId ?? t.provider])).toEqual([
      [0, 'anthropic'],
      [1, 'anthropic'],
      [2, 'anthropic'],
    ]);
    expect(run.trajectory.some((s) => s.kind === 'span' && s.name === 'agent')).toBe(true);
    expect(run.query).toBe('plan the week');
    expect(run.finalAnswer).toBe('done');
  });
});
