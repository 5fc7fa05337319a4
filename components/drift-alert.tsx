/** Tools whose schema changed since a governed run pinned them; calls to them are refused. */
export interface DriftedTool {
  name: string;
  pinned: string;
  current: string;
}

export function DriftAlert({ drifted, lead }: { drifted: readonly DriftedTool[]; lead: string }) {
  if (drifted.length === 0) return null;
  return (
    <div className="alert error" data-testid="drift">
      {lead}
      <ul>
        {drifted.map((d) => (
          <li key={d.name} className="mono small">
            {d.name}: pinned {d.pinned.slice(0, 12)}, now {d.current.slice(0, 12)}
          </li>
        ))}
      </ul>
    </div>
  );
}
