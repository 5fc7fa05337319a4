/** A cost as text, with where it came from (the price note) on hover. */
import { formatCost } from '@/lib/format/cost';

export function CostText({ usd, known, note }: { usd: number | null; known: boolean; note?: string }) {
  return (
    <span data-testid="run-cost" data-cost-known={known} title={note}>
      {formatCost(usd, known)}
    </span>
  );
}
