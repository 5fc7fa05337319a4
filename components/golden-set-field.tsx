'use client';
/** The cases a suite runs: the dataset's bundled golden file, or one of the tenant's stored golden sets (shown only when it has some). */
import type { CSSProperties } from 'react';

export function GoldenSetField({ id, label, sets, value, onChange, style }: { id: string; label: string; sets: readonly string[]; value: string; onChange: (name: string) => void; style?: CSSProperties }) {
  if (sets.length === 0) return null;
  return (
    <div className="field" style={style}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">the dataset&apos;s golden file</option>
        {sets.map((s) => (
          <option key={s} value={s}>
            golden set {s}
          </option>
        ))}
      </select>
    </div>
  );
}
