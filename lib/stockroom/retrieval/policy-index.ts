/**
 * Okapi BM25 over the policy chunks (SPEC.md §5.3–5.4). Documents keep their stopwords, queries
 * drop them; postings are precomputed so a search touches only the chunks that contain a query term.
 */
import { compareCodePoints } from '../../harness';
import { contentTokens, tokenize } from '../../harness';
import { chunkCorpus, type Chunk } from './chunk';

/** Term-frequency saturation. */
export const BM25_K1 = 1.5;
/** Length normalisation. */
export const BM25_B = 0.75;

/** A chunk and its raw (unrounded) BM25 score. */
export interface PolicyHit {
  chunk: Chunk;
  score: number;
}

interface Posting {
  chunk: number;
  tf: number;
}

/** The read-only search index of one corpus. */
export class PolicyIndex {
  /** Document token count of each chunk (`title + " " + text`, stopwords kept). */
  readonly docLengths: readonly number[];
  readonly avgdl: number;
  private readonly postings: ReadonlyMap<string, readonly Posting[]>;
  private readonly idf: ReadonlyMap<string, number>;

  private constructor(readonly chunks: Chunk[]) {
    const postings = new Map<string, Posting[]>();
    const lengths: number[] = [];
    chunks.forEach((chunk, index) => {
      const tokens = tokenize(`${chunk.title} ${chunk.text}`);
      lengths.push(tokens.length);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, count] of tf) {
        let list = postings.get(term);
        if (!list) postings.set(term, (list = []));
        list.push({ chunk: index, tf: count });
      }
    });
    const n = chunks.length;
    const idf = new Map<string, number>();
    for (const [term, list] of postings) {
      const df = list.length;
      idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    }
    this.docLengths = lengths;
    this.avgdl = n === 0 ? 0 : lengths.reduce((a, b) => a + b, 0) / n;
    this.postings = postings;
    this.idf = idf;
  }

  /** Chunks the documents (in the order given) and indexes them. */
  static build(docs: readonly { name: string; text: string }[]): PolicyIndex {
    return new PolicyIndex(Object.freeze(chunkCorpus(docs).map((c) => Object.freeze(c))) as Chunk[]);
  }

  /**
   * The top `k` chunks with a positive score, by score descending then chunk id. `k` follows
   * Python slicing (`null` means all, a negative `k` drops that many from the end).
   */
  search(query: string, k: number | null): PolicyHit[] {
    const avgdl = this.avgdl === 0 ? 1.0 : this.avgdl;
    const scores = new Map<number, number>();
    // Query tokens are summed in query order (repeats count again), as the reference does.
    for (const q of contentTokens(query)) {
      const list = this.postings.get(q);
      if (!list) continue;
      const idf = this.idf.get(q) as number;
      for (const { chunk, tf } of list) {
        const dl = this.docLengths[chunk] as number;
        const term = (idf * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * dl) / avgdl));
        scores.set(chunk, (scores.get(chunk) ?? 0) + term);
      }
    }
    const hits: PolicyHit[] = [];
    for (const [chunk, score] of scores) if (score > 0) hits.push({ chunk: this.chunks[chunk] as Chunk, score });
    hits.sort((a, b) => b.score - a.score || compareCodePoints(a.chunk.chunkId, b.chunk.chunkId));
    return k === null ? hits : hits.slice(0, k);
  }
}

const byDataset = new WeakMap<object, PolicyIndex>();

/** The index of a dataset's policy documents, built on first use and kept with the dataset. */
export function policyIndexFor(dataset: { policyDocs: readonly { name: string; text: string }[] }): PolicyIndex {
  let index = byDataset.get(dataset);
  if (!index) {
    index = PolicyIndex.build(dataset.policyDocs);
    byDataset.set(dataset, index);
  }
  return index;
}
