/**
 * A Bedrock ConverseStream answer read event by event and assembled into the Converse output the
 * non-streamed call returns, so both map through `fromConverseOutput` to the same record:
 * `contentBlockStart` (a tool use's id and name), `contentBlockDelta` (text, or a tool's input as
 * string pieces), `messageStop` (stop reason), `metadata` (usage, metrics). A stream that ends
 * before `messageStop` is a transient failure; one without `metadata` has unknown usage.
 */
import type { ContentBlock, ConverseCommandOutput, ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { safeJsonParse } from '../harness';
import { ProviderCallError } from './errors';
import type { StreamTap } from './stream-tap';

type Block = { text: string } | { toolUseId: string; name: string; json: string };

export async function readConverseStream(stream: AsyncIterable<ConverseStreamOutput>, tap: StreamTap, signal?: AbortSignal): Promise<ConverseCommandOutput> {
  const blocks: Block[] = [];
  let stopReason: ConverseCommandOutput['stopReason'] | undefined;
  let metadata: { usage?: ConverseCommandOutput['usage']; metrics?: ConverseCommandOutput['metrics'] } = {};
  for await (const e of stream) {
    tap.event();
    if (e.contentBlockStart?.start?.toolUse) {
      const t = e.contentBlockStart.start.toolUse;
      blocks[e.contentBlockStart.contentBlockIndex ?? blocks.length] = { toolUseId: t.toolUseId ?? '', name: t.name ?? '', json: '' };
      tap.output(t.name ?? '', false);
    } else if (e.contentBlockDelta?.delta) {
      const index = e.contentBlockDelta.contentBlockIndex ?? 0;
      const d = e.contentBlockDelta.delta;
      const b = blocks[index];
      if (d.text !== undefined) {
        if (b && 'text' in b) b.text += d.text;
        else blocks[index] = { text: d.text };
        tap.output(d.text, true);
      } else if (d.toolUse?.input !== undefined && b && 'json' in b) {
        b.json += d.toolUse.input;
        tap.output(d.toolUse.input, false);
      }
    } else if (e.messageStop) {
      stopReason = e.messageStop.stopReason;
    } else if (e.metadata) {
      metadata = { usage: e.metadata.usage, metrics: e.metadata.metrics };
    }
  }
  if (signal?.aborted) throw tap.failed(new ProviderCallError('cancelled', 'bedrock call cancelled'));
  if (stopReason === undefined) throw tap.endedEarly('bedrock', 'messageStop');
  const content: ContentBlock[] = blocks.flatMap((b): ContentBlock[] => {
    if (!b) return [];
    if ('text' in b) return [{ text: b.text }];
    const parsed = safeJsonParse(b.json === '' ? '{}' : b.json);
    return [{ toolUse: { toolUseId: b.toolUseId, name: b.name, input: (parsed.ok ? parsed.value : b.json) as never } }];
  });
  return { output: { message: { role: 'assistant', content } }, stopReason, usage: metadata.usage, metrics: metadata.metrics, $metadata: {} };
}
