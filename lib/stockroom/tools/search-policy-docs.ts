/** search_policy_docs (SPEC.md §7.6). */
import type { JsonValue } from '../../harness';
import { DEFAULT_TOP_K } from './constants';
import { pySliceBound, requireString } from './py-args';
import type { ToolContext } from './tool-context';

/** Python's round(x, 3), correctly rounded on the exact binary value (SPEC.md §7.6). */
export function roundScore(x: number): number {
  return Number(x.toFixed(3));
}

/** The top sections; `score` is a float for serialisation (listed in the dataset's floatKeys). */
export function searchPolicyDocs(ctx: ToolContext, args: { query: JsonValue; top_k?: JsonValue }): JsonValue {
  const query = requireString('query', args.query);
  const k = args.top_k === undefined ? DEFAULT_TOP_K : pySliceBound('top_k', args.top_k);
  return ctx.policyIndex.search(query, k).map(({ chunk, score }) => ({
    chunk_id: chunk.chunkId,
    document: chunk.doc,
    section: chunk.section,
    title: chunk.title,
    score: roundScore(score),
    text: chunk.text,
  }));
}
