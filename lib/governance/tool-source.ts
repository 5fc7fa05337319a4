/**
 * Where an executor's tools come from: the tool server's id and what it says about each tool in its
 * MCP annotations. An executor that can say so implements `toolSource()`; any other (the in-process
 * tools, wrappers that do not forward it) is an unnamed source, pinned by tool name alone.
 */
import type { ToolSource } from './capability-registry';

export interface DescribesToolSource {
  toolSource(): Promise<ToolSource>;
}

export function describesToolSource(x: unknown): x is DescribesToolSource {
  return typeof (x as Partial<DescribesToolSource> | null)?.toolSource === 'function';
}

/** The executor's tool source, or an unnamed one. */
export async function toolSourceOf(executor: unknown): Promise<ToolSource> {
  return describesToolSource(executor) ? executor.toolSource() : {};
}
