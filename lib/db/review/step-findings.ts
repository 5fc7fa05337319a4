import 'server-only';
/**
 * Replay's highlights for one page of trajectory entries: the planted instructions in each tool
 * result (the quarantine detector's verdict on the whole result, or what quarantine removed when it
 * was on) and model text that discloses the run's system prompt. See lib/charts/planted-text.ts.
 */
import { plantedInstructions, systemPromptLeak, type PromptLeak } from '../../eval';
import { safeJsonParse } from '../../harness';
import { getDb, type Database } from '../core';
import { getBlobTextOrThrow, getToolResultAt } from '../runs';
import type { StepDto, StepPage } from '../runs';

/** A replay entry with what replay highlights in it. */
export type AnnotatedStep = StepDto & { planted?: string[]; leak?: PromptLeak | null };
export type AnnotatedStepPage = Omit<StepPage, 'items'> & { items: AnnotatedStep[] };

/** The system prompt a stored run was given ('' when the run or its blob is gone). */
export async function runSystemPrompt(id: string, db: Database = getDb()): Promise<string> {
  const row = await db.prisma.run.findUnique({ where: { id }, select: { systemPromptHash: true } });
  return row ? getBlobTextOrThrow(row.systemPromptHash, db).catch(() => '') : '';
}

export async function withFindings(id: string, page: StepPage, db: Database = getDb()): Promise<AnnotatedStepPage> {
  const needsPrompt = page.items.some((i) => i.kind === 'model_turn' && i.text);
  const prompt = needsPrompt ? await runSystemPrompt(id, db) : '';
  const items = await Promise.all(
    page.items.map(async (item): Promise<AnnotatedStep> => {
      if (item.kind === 'model_turn') return item.text ? { ...item, leak: systemPromptLeak(item.text, prompt) } : item;
      if (item.kind !== 'tool_call') return item;
      if (item.quarantinedText.length > 0) return { ...item, planted: item.quarantinedText };
      // A whole result is in its preview; a longer one is read in full so a notice past the preview is found.
      const parsed = item.result.truncated ? null : safeJsonParse(item.result.preview);
      const content = parsed?.ok ? parsed.value : await getToolResultAt(id, item.index, db).catch(() => null);
      return { ...item, planted: content === null ? [] : plantedInstructions(content) };
    }),
  );
  return { ...page, items };
}
