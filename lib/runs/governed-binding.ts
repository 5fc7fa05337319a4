import 'server-only';
/**
 * What a bound field of an approval would be if the request were bound now (the request page's
 * "now" column), so a reviewer sees a stale approval before deciding.
 */
import { driftedTools, schemaDigest, UNLISTED_TOOL_VERSION } from '../governance';
import { currentPolicy } from '../governance';
import { StockroomEnvironment } from '../stockroom';
import { LocalToolExecutor } from '../stockroom';
import { getDb } from '../db/core';
import { findGovernedRun } from '../db/governance';
import { resolveDataset } from './datasets';
import { GovernedSpecSchema } from './governed-context';

export interface CurrentBinding {
  policyVersion: string;
  toolVersion: string;
  schemaDigest: string;
  /** Tools whose schema differs from the run's pin (calls to them are refused as drift). */
  drifted: { name: string; pinned: string; current: string }[];
}

/**
 * The policy version, tool version and schema digest as they are now for a governed run's tool.
 * Specs come from the in-process executor over the run's dataset and weakness flags (the MCP
 * transports serve the same specs); null when the run is not governed or its dataset is gone.
 */
export async function currentBinding(runId: string, tool: string): Promise<CurrentBinding | null> {
  const stored = await findGovernedRun(getDb().prisma, runId);
  const spec = stored ? GovernedSpecSchema.safeParse(stored.spec) : null;
  if (!stored || !spec?.success) return null;
  let specs;
  try {
    const { dataset } = resolveDataset(spec.data.datasetId, spec.data.tenant);
    specs = await new LocalToolExecutor(new StockroomEnvironment(dataset, [...spec.data.weaknesses])).listSpecs();
  } catch {
    return null;
  }
  const policy = currentPolicy();
  const found = specs.find((s) => s.name === tool);
  return {
    policyVersion: policy.version,
    toolVersion: policy.document.tools[tool]?.version ?? UNLISTED_TOOL_VERSION,
    schemaDigest: found ? schemaDigest(found) : '(tool no longer listed)',
    drifted: driftedTools(stored.pin, specs),
  };
}
