/**
 * A third-party tool held to the outputSchema it declares, as the SDK's own client does by default
 * (issue 40): a result that is not an error must carry `structuredContent`, and it must match. A
 * violation reaches the model as a tool error and is recorded on the step; the result is not used.
 * Checked here rather than inside the SDK's callTool, whose validators are rebuilt from each
 * tools/list page alone (a paginated server loses the schemas of earlier pages) and whose failures
 * arrive as JSON-RPC errors indistinguishable from the server's own refusals.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { FloatKeys, ToolResult } from '../../harness';
import { payloadChars } from './normalise-result';

/** The error code the model and the record see for a result that broke its tool's outputSchema. */
export const OUTPUT_SCHEMA_VIOLATION = 'output_schema_violation';

type Check = (value: unknown) => string | null;

export class OutputSchemas {
  private readonly ajv = new AjvJsonSchemaValidator();
  private checks = new Map<string, Check>();

  /** Replaces the schemas with those of `tools`: the server's whole list, every page of it. */
  update(tools: readonly Tool[]): void {
    const checks = new Map<string, Check>();
    for (const tool of tools) {
      if (tool.outputSchema === undefined) continue;
      let validate: JsonSchemaValidator<unknown>;
      try {
        validate = this.ajv.getValidator(tool.outputSchema as JsonSchemaType);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        checks.set(tool.name, () => `its outputSchema cannot be used (${why})`);
        continue;
      }
      checks.set(tool.name, (value) => {
        const verdict = validate(value);
        return verdict.valid ? null : `its structured content does not match its outputSchema: ${verdict.errorMessage ?? 'invalid'}`;
      });
    }
    this.checks = checks;
  }

  /** What is wrong with `result` of tool `name`, or null (no schema declared, an error result, or it matches). */
  violation(name: string, result: CallToolResult): string | null {
    const check = this.checks.get(name);
    if (check === undefined || result.isError === true) return null;
    if (result.structuredContent === undefined) return `${name} declares an outputSchema but returned no structured content`;
    const why = check(result.structuredContent);
    return why === null ? null : `${name}: ${why}`;
  }
}

/** The tool error the model reads in place of a result that broke its schema. */
export function schemaViolationResult(violation: string, floatKeys: FloatKeys): ToolResult {
  const content = { error: OUTPUT_SCHEMA_VIOLATION, message: `${violation}; the result was not used` };
  return { content, isError: true, errorCode: OUTPUT_SCHEMA_VIOLATION, payloadChars: payloadChars(content, true, floatKeys), schemaViolation: violation };
}
