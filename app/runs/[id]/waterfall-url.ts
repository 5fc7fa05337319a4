/** Where the replay fetches a run's waterfall; the page preloads the same address (it must match exactly). */
export const waterfallUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/waterfall`;
