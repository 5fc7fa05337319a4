/**
 * The narrow, Converse-shaped model interface the loop talks to. A live Bedrock client and the
 * deterministic fake both implement it.
 */
import type { Message, ModelResponse, ToolSpec } from '../types';

export interface ConverseRequest {
  system: string;
  /** Messages exactly as the model sees them (private keys already stripped). */
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
}

export interface ModelClient {
  readonly modelId: string;
  converse(request: ConverseRequest): Promise<ModelResponse>;
}
