/**
 * The part of lib/otel that is safe outside the server: its error types, with no storage, exporter or
 * Node-only module behind them (lib/transfer's run files use it, and run files are read in the browser
 * and in tests that run outside the server's bundle).
 */
export { TraceImportError } from './errors';
