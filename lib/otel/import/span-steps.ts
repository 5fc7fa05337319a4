/**
 * Every span that is neither a model call, a tool call nor an agent, as what it is (issue 31):
 * OpenInference CHAIN, RETRIEVER (its documents and their scores), EMBEDDING, RERANKER (the
 * documents in and out), GUARDRAIL, EVALUATOR, PROMPT; GenAI `embeddings`, `create_agent`; any
 * other span as `custom`, its attributes kept whole. Never a guard event.
 */
import { SemanticConventions as OI } from '@arizeai/openinference-semantic-conventions';
import type { JsonValue } from '../../harness';
import type { CallTime, SpanDocument, SpanStep, StepTree } from '../../harness';
import { num, stepKindOf, str } from './conventions/span-view';
import type { AttrMap, AttrValue, SpanRecord } from './span-record';
import { ms } from './step-records';

/** A convention's word for a kind, as the run keeps it (`embeddings` → `embedding`, unknown → `custom`). */
const KIND_WORDS: Record<string, string> = { embeddings: 'embedding', unknown: 'custom' };

/** Documents listed under `prefix` (`retrieval.documents`): flattened `prefix.N.document.*` keys, or an array. */
export function documentsAt(a: AttrMap, prefix: string): SpanDocument[] | undefined {
  const listed = a[prefix];
  if (Array.isArray(listed)) return listed.map((d) => documentOf(typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as AttrMap) : {}, ''));
  const byIndex = new Map<number, AttrMap>();
  const head = `${prefix}.`;
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(head)) continue;
    const m = /^(\d+)\.(.+)$/.exec(k.slice(head.length));
    if (!m) continue;
    const i = Number(m[1]);
    byIndex.set(i, { ...(byIndex.get(i) ?? {}), [m[2]!]: v });
  }
  if (byIndex.size === 0) return undefined;
  return [...byIndex.entries()].sort((x, y) => x[0] - y[0]).map(([, d]) => documentOf(d, 'document.'));
}

function documentOf(d: AttrMap, p: string): SpanDocument {
  const pick = (k: string): AttrValue | undefined => d[`${p}${k}`] ?? (typeof d.document === 'object' && d.document !== null && !Array.isArray(d.document) ? (d.document as AttrMap)[k] : undefined);
  const id = pick('id');
  const metadata = pick('metadata');
  return {
    id: id === undefined || id === null ? null : String(id),
    content: str(pick('content') ?? null),
    score: num(pick('score') ?? null),
    ...(metadata !== undefined && metadata !== null ? { metadata: metadata as JsonValue } : {}),
  };
}

export function spanStep(span: SpanRecord, step: number, time: CallTime, tree: StepTree): SpanStep {
  const a = span.attributes;
  const attributes: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(a)) attributes[k] = v as JsonValue;
  const word = stepKindOf(span).toLowerCase();
  const spanKind = KIND_WORDS[word] ?? word;
  const input = str(a[OI.INPUT_VALUE] ?? null) ?? str(a['gen_ai.input.messages'] ?? null);
  const output = str(a[OI.OUTPUT_VALUE] ?? null) ?? str(a['gen_ai.output.messages'] ?? null);
  const documents = documentsAt(a, OI.RETRIEVAL_DOCUMENTS) ?? documentsAt(a, OI.RERANKER_OUTPUT_DOCUMENTS);
  const inputDocuments = documentsAt(a, OI.RERANKER_INPUT_DOCUMENTS);
  const out: SpanStep = {
    ...tree,
    kind: 'span',
    step,
    spanKind,
    name: span.name,
    attributes,
    latencyMs: ms(span.endNs - span.startNs),
    isError: span.statusCode === 2,
    time,
  };
  if (input !== null) out.input = input;
  if (output !== null) out.output = output;
  if (documents) out.documents = documents;
  if (inputDocuments) out.inputDocuments = inputDocuments;
  return out;
}
