/** A cost as text, with where it came from (the price note) on hover. */
import { formatCost } from '@/lib/format/cost';

export function CostText({ usd, known, note, unreportedCalls = 0 }: { usd: number | null; known: boolean; note?: string; unreportedCalls?: number }) {
  return (
    <span data-testid="run-cost" data-cost-known={known} data-unreported-calls={unreportedCalls} title={note}>
      {formatCost(usd, known, unreportedCalls)}
    </span>
  );
}
