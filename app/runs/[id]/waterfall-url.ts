/** Where the replay fetches a run's waterfall; the page preloads the same address (it must match exactly). */
export const waterfallUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/waterfall`;

/** Where the replay fetches the whole skeleton of a run the page sent only the head of (preloaded the same way). */
export const timelineUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/timeline`;
