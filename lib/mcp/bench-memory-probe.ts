/**
 * Loaded into the mcp-server process the memory bench starts (`node [--expose-gc] --import tsx
 * --import <this file> …`; the server never loads it otherwise). It answers lines on stdin (the
 * HTTP server does not read stdin): `read` reports the memory as it is, `collect` runs a full
 * garbage collection first (needs --expose-gc). Each answer is one line on stderr,
 * `memory-probe {"rss":…,"heapTotal":…,"heapUsed":…}` in bytes, so the bench can tell memory still
 * held from garbage V8 has not collected yet, and V8's heap from the rest of the process.
 */
import { createInterface } from 'node:readline';

const gc = (globalThis as { gc?: () => void }).gc;

createInterface({ input: process.stdin }).on('line', (command) => {
  if (command === 'collect') {
    if (!gc) throw new Error('bench-memory-probe: collect needs node --expose-gc');
    // Twice: objects kept only by a finalization registry or a weak reference go on the second.
    gc();
    gc();
  } else if (command !== 'read') {
    return;
  }
  const { rss, heapTotal, heapUsed } = process.memoryUsage();
  process.stderr.write(`memory-probe ${JSON.stringify({ rss, heapTotal, heapUsed })}\n`);
});
