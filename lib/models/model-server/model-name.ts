/**
 * The one model the offline model server serves (it answers 404 to any other name). A client that
 * names it is talking to the project's own server, the only one that is sent a run's case id and
 * weakness flags as request metadata (lib/models/create-model-client.ts).
 */
export const MODEL_SERVER_MODEL = 'stockroom-fake';
