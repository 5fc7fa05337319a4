import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; tests import lib/db directly, so map it
      // to the package's own empty module (what the `react-server` condition resolves to).
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'cli/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on PostgreSQL, child processes and sockets rather than the CPU; Vitest's default of
    // one worker per core less left one of two cores idle and made the suite twice as long. With three,
    // the files' own times summed to 2,096 s over a 760 s suite (2.3 busy on average, mostly waiting);
    // the nine longest fault and worker files took 100 s at four workers using 1.7 cores.
    maxWorkers: 4,
    // Evidence is signed with a key kept outside the database; tests sign with this one.
    env: { STOCKROOM_EVIDENCE_KEY: 'test-evidence-key-0123456789abcdef0123456789' },
  },
});
