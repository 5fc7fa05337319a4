/**
 * The runs table shaped for its page (app/runs/page.tsx): the rows a page holds, where a paused run
 * points, the tokens and count as words, and the filter form's options. Pure: the page loads, this shapes.
 */

/** A request a paused run waits on, as much of it as the table needs. */
export interface PausedRequest {
  id: string;
  status: string;
}

/**
 * Where a paused run points: the request still open, else its last one with what became of it (a
 * decided request no longer waits for a reviewer). `requests` are the run's, oldest first.
 */
export function pausedOn<R extends PausedRequest, O>(requests: readonly R[] | undefined, decided: ReadonlyMap<string, O>): { request: R | undefined; outcome: O | null } {
  const all = requests ?? [];
  const open = all.find((r) => r.status === 'pending');
  const last = all.at(-1);
  return { request: open ?? last, outcome: !open && last ? (decided.get(last.id) ?? null) : null };
}

/** The requests of paused runs that were decided, whose outcome the table shows instead of "waiting". */
export function decidedRequests<R extends PausedRequest>(waiting: ReadonlyMap<string, readonly R[]>): R[] {
  return [...waiting.values()].flat().filter((r) => r.status !== 'pending');
}

/** A run's tokens: "not reported", "≥ n" when some calls reported none, else the count. */
export function tokensText(run: { totalTokens: number; unreportedCalls: number }): string {
  if (run.unreportedCalls === 0) return run.totalTokens.toLocaleString('en');
  return run.totalTokens === 0 ? 'not reported' : `≥ ${run.totalTokens.toLocaleString('en')}`;
}

/** "1,204 matching runs in suite S", "1,000+ matching runs" when the count stopped early. */
export function countText(total: { count: number; exact: boolean }, suite: string | undefined): string {
  const n = total.count.toLocaleString('en');
  return `${total.exact ? n : `${n}+`} matching run${total.count === 1 ? '' : 's'}${suite ? ` in suite ${suite}` : ''}`;
}

/** The model filter's options: the tenant's models, and the one asked for when no run has it. */
export function modelOptions(models: readonly string[], selected: string | undefined): string[] {
  return selected && !models.includes(selected) ? [...models, selected] : [...models];
}

/** The category filter's options: every category of the datasets, once, sorted. */
export function categoryOptions(datasets: readonly { categories: readonly string[] }[]): string[] {
  return [...new Set(datasets.flatMap((d) => d.categories))].sort();
}

/** The dataset filter's options: each dataset name once, in the datasets' order. */
export function datasetNameOptions(datasets: readonly { name: string }[]): string[] {
  return [...new Set(datasets.map((d) => d.name))];
}

/** The runs of a page of rows (suite groups left out): the ones whose approvals, labels and writes are looked up. */
export function runsOfRows<T>(rows: readonly ({ kind: 'run'; run: T } | { kind: 'suite' })[]): T[] {
  return rows.flatMap((r) => (r.kind === 'run' ? [r.run] : []));
}

/** A stored ISO time as the table shows it: the date, and the time to the second. */
export function startedParts(iso: string): { date: string; time: string } {
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}
