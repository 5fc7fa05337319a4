/**
 * Runs once when the Next.js server starts. Everything it does needs Node.js (the database, the
 * governed-run sweeper), so it lives in instrumentation-node.ts, imported only under the Node.js
 * runtime: the branch is what keeps the Edge instrumentation bundle from tracing it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { registerNode } = await import('./instrumentation-node');
    await registerNode();
  }
}
