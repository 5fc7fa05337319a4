/**
 * What the model is shown (SPEC.md §6): five specs in a fixed order, descriptions from the dataset,
 * input schemas with their property order (it is serialised and counted).
 */
import type { JsonObject } from '../../harness';
import type { WeaknessFlag } from '../../harness';
import { DatasetError } from '../../harness';
import type { ToolSpec } from '../../harness';
import { TOOL_DESCRIPTIONS_FILE } from '../dataset/load-dataset';
import { TOOL_NAMES, type Dataset, type ToolName } from '../dataset/types';
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT, TOP_K_LIMIT } from './constants';
import { deepFreeze } from '../deep-freeze';

/** The tool schemas' id patterns, as strings (one backslash; JSON doubles it). */
export const SKU_SCHEMA_PATTERN = '^SKU-\\d{4}$';
export const ORDER_ID_SCHEMA_PATTERN = '^ORD-\\d{4}$';

function objectSchema(properties: JsonObject, required: string[]): JsonObject {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The JSON Schema of one tool's input, exactly as §6.3 prints it. */
export function inputSchemaFor(name: ToolName, weaknesses: readonly WeaknessFlag[] = []): JsonObject {
  switch (name) {
    case 'search_products': {
      const properties: JsonObject = {
        query: { type: 'string', minLength: 1, description: 'Name, category or keyword' },
      };
      // Under oversized_payload the model cannot ask for fewer results.
      if (!weaknesses.includes('oversized_payload')) {
        properties.max_results = {
          type: 'integer',
          minimum: 1,
          maximum: MAX_RESULTS_LIMIT,
          description: `Maximum products to return (default ${DEFAULT_MAX_RESULTS})`,
        };
      }
      return objectSchema(properties, ['query']);
    }
    case 'get_stock_level':
      return objectSchema({ sku: { type: 'string', pattern: SKU_SCHEMA_PATTERN, description: 'SKU-####' } }, ['sku']);
    case 'get_order_status':
      return objectSchema({ order_id: { type: 'string', pattern: ORDER_ID_SCHEMA_PATTERN, description: 'ORD-####' } }, [
        'order_id',
      ]);
    case 'create_restock_request':
      return objectSchema(
        {
          sku: { type: 'string', pattern: SKU_SCHEMA_PATTERN },
          quantity: { type: 'integer', minimum: 1 },
          priority: { type: 'string', enum: ['standard', 'urgent'] },
        },
        ['sku', 'quantity'],
      );
    case 'search_policy_docs':
      return objectSchema({ query: { type: 'string', minLength: 1 }, top_k: { type: 'integer', minimum: 1, maximum: TOP_K_LIMIT } }, [
        'query',
      ]);
  }
}

function descriptionFor(dataset: Dataset, name: ToolName, weaknesses: readonly WeaknessFlag[]): string {
  const entry = dataset.toolDescriptions.tools[name];
  if (name === 'search_products' && weaknesses.includes('ambiguous_tool_desc')) {
    if (!entry.ambiguous) {
      throw new DatasetError(TOOL_DESCRIPTIONS_FILE, 'ambiguous_tool_desc needs an "ambiguous" description', {
        field: 'tools.search_products.ambiguous',
      });
    }
    return entry.ambiguous;
  }
  return entry.default;
}

/** The five specs in the order the model sees them; deep-frozen, since they are shared per run. */
export function buildToolSpecs(dataset: Dataset, weaknesses: readonly WeaknessFlag[]): ToolSpec[] {
  return TOOL_NAMES.map((name) =>
    deepFreeze({ name, description: descriptionFor(dataset, name, weaknesses), inputSchema: inputSchemaFor(name, weaknesses) }),
  );
}

/** The Converse shape the model is shown and the tokens are counted on (§6.1). */
export function toConverseToolSpec(spec: ToolSpec): { toolSpec: { name: string; description: string; inputSchema: { json: JsonObject } } } {
  return { toolSpec: { name: spec.name, description: spec.description, inputSchema: { json: spec.inputSchema } } };
}
