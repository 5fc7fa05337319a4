'use client';
/** The category of a reviewer's label, from the tenant's label set (optional: "none"). */
export function LabelCategorySelect({ categories, value, onChange }: { categories: readonly string[]; value: string; onChange: (category: string) => void }) {
  return (
    <label>
      Category{' '}
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label="Label category">
        <option value="">none</option>
        {categories.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}
