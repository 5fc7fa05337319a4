/** Marks a run that came from an imported trace or run file rather than this dashboard's harness. */
export function ImportedBadge({ source }: { source: string }) {
  if (source !== 'imported') return null;
  return (
    <span className="badge info" data-testid="imported-badge" title="Imported from an OpenTelemetry trace or a run file">
      imported
    </span>
  );
}
