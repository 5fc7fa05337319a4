/**
 * The stockroom library's browser-safe door: what code that reaches a client component may import from
 * lib/stockroom. Everything here imports no Node built-in and no server-only module (lib/import-graph.test.ts
 * checks it); the rest of the library is entered through ./index.ts.
 */
export { switchesOf, type WeaknessEntry, WEAKNESS_ORDER, WEAKNESSES, weaknessLegend, type WeaknessLegendRow } from './weaknesses/weakness-table';
