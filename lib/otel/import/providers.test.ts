import { describe, expect, it } from 'vitest';
import { normaliseProvider } from './providers';

describe('normaliseProvider', () => {
  it.each([
    ['gcp.gemini', 'google'],
    ['google.generative-ai', 'google'],
    ['google.vertex', 'google'],
    ['mistral_ai', 'mistral'],
    ['mistral.chat', 'mistral'],
    ['mistralai', 'mistral'],
    ['groq', 'groq'],
    ['groq.chat', 'groq'],
    ['azure.ai.openai', 'azure'],
    ['az.ai.inference', 'azure'],
    ['x_ai', 'xai'],
    ['deepseek', 'deepseek'],
    ['cohere', 'cohere'],
    ['ollama', 'ollama'],
    ['aws.bedrock', 'bedrock'],
    ['amazon-bedrock', 'bedrock'],
    ['openai.responses', 'openai'],
    ['anthropic.messages', 'anthropic'],
    ['OpenAI', 'openai'],
    ['stub.chat', 'stub'],
  ])('reads %s as %s', (sent, id) => {
    expect(normaliseProvider(sent)).toBe(id);
  });

  it('gives no id for no name', () => {
    expect(normaliseProvider(null)).toBeNull();
    expect(normaliseProvider('  ')).toBeNull();
  });
});
