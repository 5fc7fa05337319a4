import 'server-only';
/**
 * The arguments of journaled writes. The journal keeps only their digest (arguments may carry
 * secrets the evidence redacts); the stored run keeps the call itself, so the Effects page reads
 * each entry's arguments from its run's tool call (by run id and call id).
 */
import type { JsonValue } from '../../harness';
import { safeJsonParse } from '../../harness';
import { getDb, type Database } from '../core';

/** `runId + '\u0000' + callId` → the call's arguments, for the entries whose run stored the call. */
export async function argumentsOfCalls(entries: readonly { runId: string; callId: string }[], db: Database = getDb()): Promise<Map<string, JsonValue>> {
  const out = new Map<string, JsonValue>();
  if (entries.length === 0) return out;
  const rows = await db.prisma.toolCall.findMany({
    where: { runId: { in: [...new Set(entries.map((e) => e.runId))] }, toolUseId: { in: [...new Set(entries.map((e) => e.callId))] } },
    select: { runId: true, toolUseId: true, arguments: true },
  });
  for (const r of rows) {
    const parsed = safeJsonParse(r.arguments);
    if (parsed.ok) out.set(callKey(r.runId, r.toolUseId), parsed.value);
  }
  return out;
}

export function callKey(runId: string, callId: string): string {
  return `${runId}\u0000${callId}`;
}
