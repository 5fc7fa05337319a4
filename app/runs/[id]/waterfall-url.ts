import type { WaterfallPageRequest } from '@/lib/charts/waterfall';

/**
 * Where the replay fetches a page of a run's waterfall (the first by default, or all of a run of several
 * agents); the page preloads the same address for the first it shows (it must match exactly).
 */
export const waterfallUrl = (runId: string, page: WaterfallPageRequest = 0) => `/api/runs/${encodeURIComponent(runId)}/waterfall${page === 0 ? '' : `?page=${page}`}`;

/** Where the replay fetches the whole skeleton of a run the page sent only the head of (preloaded the same way). */
export const timelineUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/timeline`;
