/**
 * What an imported trace could not keep as sent (a cycle in parent ids, a parent that never arrived,
 * a span id sent twice, nesting too deep, a name too long) and what became of each span: the tree on
 * this page is the best one those spans allowed, and this says so rather than hiding it.
 */
import type { SetAside } from '@/lib/harness/types';

const REASONS: Record<SetAside['reason'], string> = {
  cycle: 'its parent ids form a cycle',
  missing_parent: 'its parent never arrived',
  duplicate_span: 'its span id was sent twice with different content',
  too_deep: 'it is nested too deep',
  name_too_long: 'its name is too long',
  invalid: 'it is not a valid span',
};

// A span's name can be 10 kB of anything: shown cut, as text.
const cut = (s: string) => (s.length > 120 ? `${s.slice(0, 119)}…` : s);

export function SetAsideNotice({ setAside }: { setAside: readonly SetAside[] }) {
  if (setAside.length === 0) return null;
  const dropped = setAside.filter((s) => s.action === 'dropped').length;
  return (
    <section className="alert warn" role="note" aria-label="Spans set aside" data-testid="set-aside">
      <strong>
        {setAside.length} span{setAside.length === 1 ? '' : 's'} of this trace could not be kept as sent
        {dropped > 0 ? ` (${dropped} left out of the run)` : ' (all kept, placed as noted)'}.
      </strong>
      <details>
        <summary>Which, and why</summary>
        <ul className="small" style={{ overflowWrap: 'anywhere' }}>
          {setAside.map((s, i) => (
            <li key={`${s.spanId}-${i}`}>
              <span className="mono">{s.spanId}</span> {cut(s.name)}: {REASONS[s.reason]}; {s.action === 'dropped' ? 'left out' : 'kept'}
              {s.detail ? ` (${cut(s.detail)})` : ''}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
