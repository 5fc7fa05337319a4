/**
 * The rules of the floor plan, as pure functions over the import graph that dependency-cruiser reads
 * (`cruiseImports`). lib/import-graph.test.ts holds the project to them; lib/import-rules.test.ts
 * plants a violation of each in a small tree and sees each rule catch it, so a rule that silently
 * stopped matching (a renamed folder, a changed resolver) fails too.
 */

/** One import: `from` imports `to` (a project path, or a node_modules path, or a Node built-in). */
export interface ImportEdge {
  from: string;
  to: string;
  circular: boolean;
  /** A Node built-in (`node:fs`, `path`). */
  coreModule: boolean;
  /** `import type` only: erased at build time, so it puts nothing into a bundle. */
  typeOnly: boolean;
}

export interface ImportGraph {
  modules: string[];
  edges: ImportEdge[];
}

/** Reads the import graph of `roots` (folders relative to `cwd`), type-only imports included. */
export async function cruiseImports(roots: readonly string[], cwd: string = process.cwd()): Promise<ImportGraph> {
  const { cruise } = await import('dependency-cruiser');
  const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const result = await cruise(
      [...roots],
      // node_modules is not followed but not excluded either: excluding it dropped every edge to a package,
      // so a check on packages (no provider SDK in lib/harness) could never fail.
      // tsConfig.fileName makes the resolver follow tsconfig's paths: without it every `@/…` import was an
      // unresolved edge that no rule saw (issue 36's planted `@/lib/db/…` deep import went uncaught).
      { tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, exclude: { path: ['lib/db/generated'] }, tsConfig: { fileName: 'tsconfig.json' } },
      undefined,
      { tsConfig: extractTSConfig('tsconfig.json') },
    );
    const output = result.output as {
      modules: { source: string; dependencies: { resolved: string; circular: boolean; coreModule: boolean; dependencyTypes: string[] }[] }[];
    };
    return {
      modules: output.modules.map((m) => m.source),
      edges: output.modules.flatMap((m) =>
        m.dependencies.map((d) => ({
          from: m.source,
          to: d.resolved,
          circular: d.circular,
          coreModule: d.coreModule,
          typeOnly: d.dependencyTypes.includes('type-only'),
        })),
      ),
    };
  } finally {
    process.chdir(before);
  }
}

export const isTest = (p: string) => /\.test\.tsx?$/.test(p);
/**
 * Sub-areas that are libraries of their own: each has its own floor and its own door (`index.ts`), and
 * the rest of its parent folder enters it only through that door. lib/mcp's server and client stand
 * apart (the MCP SDK's split), on the protocol both speak (`mcp/shared`); `lib/mcp/index.ts` sits above
 * the three and names what leaves lib/mcp. lib/db is split by aggregate (issue 36), each area on the
 * ones below it: core (the client and platform) ← auth, governance ← runs ← traces, suites, review;
 * what is left of lib/db (`testing/`, the generated clients) sits above them all.
 */
export const SPLIT_LIBRARIES = ['mcp/shared', 'mcp/server', 'mcp/client', 'db/core', 'db/auth', 'db/governance', 'db/runs', 'db/traces', 'db/suites', 'db/review'] as const;

/** The library a path belongs to: `lib/<folder>/…`, or a split sub-area (`mcp/server`); null outside lib/. */
export const libraryOf = (p: string): string | null =>
  SPLIT_LIBRARIES.find((area) => p.startsWith(`lib/${area}/`)) ?? /^lib\/([^/]+)\//.exec(p)?.[1] ?? null;

/**
 * A library's doors: `index.ts` (everything other libraries may use), `browser.ts` (the part that is safe
 * in a client bundle), a sub-area's own `index.ts` one folder down (`lib/mcp/server/index.ts`), and its
 * `testing/` helpers (for test code).
 */
export function isDoor(p: string): boolean {
  return /^lib\/[^/]+\/(index|browser)\.tsx?$/.test(p) || /^lib\/[^/]+\/[^/]+\/index\.tsx?$/.test(p) || /^lib\/[^/]+\/testing\//.test(p);
}

const arrow = (e: ImportEdge) => `${e.from} → ${e.to}`;

/** Imports that close a circle. */
export function circles(edges: readonly ImportEdge[]): string[] {
  return edges.filter((e) => e.circular).map(arrow);
}

/** Imports from a lib/ folder to one on a higher floor (test files may compose higher floors). */
export function upwardImports(edges: readonly ImportEdge[], floors: readonly string[]): string[] {
  const floor = (f: string) => floors.indexOf(f);
  return edges
    .filter((e) => {
      const a = libraryOf(e.from);
      const b = libraryOf(e.to);
      return a !== null && b !== null && a !== b && !isTest(e.from) && floor(a) < floor(b);
    })
    .map(arrow);
}

/**
 * Imports of another library's internals: code in lib/ (test files and lib/actions, which is app code,
 * aside) enters each library of `doored` only through a door.
 */
export function deepImports(edges: readonly ImportEdge[], doored: readonly string[], deepAllowed: readonly string[]): string[] {
  return edges
    .filter((e) => {
      const a = libraryOf(e.from);
      const b = libraryOf(e.to);
      return a !== null && b !== null && a !== b && !isTest(e.from) && !deepAllowed.includes(a) && doored.includes(b) && !isDoor(e.to);
    })
    .map(arrow);
}

/** Imports from lib/ of app/ or components/ (the top floor; a test file may compose it, a `testing/` helper may not). */
export function libToApp(edges: readonly ImportEdge[]): string[] {
  return edges.filter((e) => e.from.startsWith('lib/') && !isTest(e.from) && /^(app|components)\//.test(e.to)).map(arrow);
}

/**
 * What a library's `browser.ts` door brings into a client bundle that cannot be there: a Node built-in
 * or `server-only`, reached through imports that are not type-only. Each entry names the chain's last step.
 */
export function browserDoorLeaks(edges: readonly ImportEdge[]): string[] {
  const out = new Map<string, ImportEdge[]>();
  for (const e of edges) if (!e.typeOnly) out.set(e.from, [...(out.get(e.from) ?? []), e]);
  const leaks: string[] = [];
  const doors = [...new Set(edges.map((e) => e.from))].filter((f) => /^lib\/[^/]+\/browser\.tsx?$/.test(f));
  for (const door of doors) {
    const seen = new Set<string>();
    const stack = [door];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const e of out.get(file) ?? []) {
        if (e.coreModule || /node_modules\/server-only\//.test(e.to)) leaks.push(`${door}: ${arrow(e)}`);
        else if (!e.to.includes('node_modules/')) stack.push(e.to);
      }
    }
  }
  return leaks;
}

/** Every module `start` reaches through imports that are not type-only (node_modules paths included, not followed). */
export function reachedFrom(edges: readonly ImportEdge[], start: string): Set<string> {
  const out = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.includes('node_modules/')) stack.push(...(out.get(file) ?? []));
  }
  return seen;
}

/** Doors that re-export with `export *` (a door names what it makes public). */
export function wildcardDoors(files: ReadonlyMap<string, string>): string[] {
  return [...files].filter(([p, text]) => /^lib\/[^/]+\/((index|browser)|[^/]+\/index)\.tsx?$/.test(p) && /^export \*/m.test(text)).map(([p]) => p);
}
