/**
 * A pure function of a string, remembered for the strings it was last called with. The fake model
 * plans the same queries at every step, and the scorers and the fake judge normalise and search the
 * same answers, tool outputs and facts many times over a matrix with epochs (each case's runs repeat
 * most of their text); a regular-expression pass costs far more than a lookup. The cache is bounded: when full it starts again, so memory stays flat and a
 * result never depends on what was cached.
 */

/** Strings each memoised function remembers before it starts again. */
export const TEXT_MEMO_ENTRIES = 4096;

export function memoByText<T>(fn: (text: string) => T, entries: number = TEXT_MEMO_ENTRIES): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const value = fn(text);
    if (cache.size >= entries) cache.clear();
    cache.set(text, value);
    return value;
  };
}
