/**
 * A provider's name as each producer spells it, normalised to one id: the OpenTelemetry GenAI
 * registry (`gcp.gemini`, `mistral_ai`, `x_ai`, `aws.bedrock`, `azure.ai.openai`, and the older
 * `az.ai.*`, `vertex_ai`, `gemini`), the Vercel AI SDK's `<provider>.<api>` (`google.generative-ai`,
 * `mistral.chat`, `groq.chat`, `amazon-bedrock`), and OpenInference's `llm.provider`/`llm.system`
 * (`google`, `mistralai`, `aws`, `xai`). A name none of these knows keeps its first segment
 * (`stub.chat` → `stub`): never refused, shown as sent beside the id.
 */

/** Spellings (lower case, whole name or first dotted segment) → provider id. */
const ALIASES: Record<string, string> = {
  openai: 'openai',
  'openai-compatible': 'openai-compatible',
  anthropic: 'anthropic',
  'aws.bedrock': 'bedrock',
  'amazon-bedrock': 'bedrock',
  bedrock: 'bedrock',
  aws: 'bedrock',
  'azure.ai.openai': 'azure',
  'az.ai.openai': 'azure',
  'azure.ai.inference': 'azure',
  'az.ai.inference': 'azure',
  'azure-openai': 'azure',
  azure: 'azure',
  'gcp.gemini': 'google',
  'gcp.vertex_ai': 'google',
  'gcp.gen_ai': 'google',
  'google.generative-ai': 'google',
  'google.vertex': 'google',
  google: 'google',
  gemini: 'google',
  vertex_ai: 'google',
  vertexai: 'google',
  mistral_ai: 'mistral',
  mistralai: 'mistral',
  mistral: 'mistral',
  groq: 'groq',
  x_ai: 'xai',
  xai: 'xai',
  deepseek: 'deepseek',
  cohere: 'cohere',
  ollama: 'ollama',
  perplexity: 'perplexity',
  'ibm.watsonx.ai': 'watsonx',
  watsonx: 'watsonx',
};

/** The longest a provider id may be (a longer name is cut: it is a label, not a key of anything). */
const MAX_PROVIDER_ID = 64;

/** One id for a provider however it was spelled; null when none was given. */
export function normaliseProvider(sent: string | null): string | null {
  if (sent === null) return null;
  const p = sent.trim().toLowerCase();
  if (p === '') return null;
  if (ALIASES[p]) return ALIASES[p];
  // `<provider>.<api>` (AI SDK) and `<vendor>.<product>` (registry): try growing dotted prefixes.
  const parts = p.split('.');
  for (let n = parts.length - 1; n >= 1; n--) {
    const prefix = parts.slice(0, n).join('.');
    if (ALIASES[prefix]) return ALIASES[prefix];
  }
  return (parts[0] || p).slice(0, MAX_PROVIDER_ID);
}
