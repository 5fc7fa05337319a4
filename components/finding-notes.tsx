/**
 * Replay's highlights (lib/charts/planted-text.ts finds them): a planted instruction inside a tool
 * result, and model text that discloses the system prompt. Each is a labelled note with the text
 * marked, so it reads without colour and a screen reader announces what it is.
 */
import type { PromptLeak } from '@/lib/eval/planted-text';

export function PlantedNotice({ paragraphs, quarantined }: { paragraphs: readonly string[]; quarantined: boolean }) {
  if (paragraphs.length === 0) return null;
  return (
    <div className="finding" role="note" aria-label="Planted instruction in this tool result" data-testid="planted-notice">
      <p className="finding-label small">
        <strong>⚠ Planted instruction in this tool result</strong> —{' '}
        {quarantined ? 'quarantine removed it before the model saw it.' : 'the model read it: tool text was not quarantined in this run.'}
      </p>
      {paragraphs.map((p, i) => (
        <mark key={i}>{p}</mark>
      ))}
    </div>
  );
}

export function PromptLeakNote({ leak, where }: { leak: PromptLeak | null | undefined; where: string }) {
  if (!leak) return null;
  return (
    <div className="finding" role="note" aria-label={`${where} discloses the system prompt`} data-testid="prompt-leak">
      <p className="finding-label small">
        <strong>⚠ Leaked system prompt</strong> — {where.toLowerCase()} repeats {leak.linesFound} of the {leak.linesTotal} lines of the system prompt this run was
        given:
      </p>
      <mark>{leak.excerpt}</mark>
    </div>
  );
}
