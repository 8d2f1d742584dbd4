import type { MetonaMessage, MetonaRequest, MetonaSystemPrompt, MetonaToolDef } from '../ir';

/**
 * Token estimates without a tokenizer, sane for Chinese and English alike:
 * a CJK character (Han, kana, Hangul, full-width punctuation) is about one
 * token in current BPE vocabularies; other text about four characters per
 * token. Every message adds a fixed overhead for its role and separators.
 * Deliberately on the high side for CJK, so compression starts early, not late.
 */

export const MESSAGE_OVERHEAD_TOKENS = 4;
export const REQUEST_OVERHEAD_TOKENS = 3;
export const TOOL_OVERHEAD_TOKENS = 8;
/** A low-detail image tile, the cheapest any provider bills. */
export const IMAGE_TOKENS = 85;
const LATIN_CHARS_PER_TOKEN = 4;

function isCjk(codePoint: number): boolean {
  return (
    (codePoint >= 0x2e80 && codePoint <= 0x2fdf) || // radicals
    (codePoint >= 0x3000 && codePoint <= 0x303f) || // CJK punctuation
    (codePoint >= 0x3040 && codePoint <= 0x30ff) || // hiragana, katakana
    (codePoint >= 0x3100 && codePoint <= 0x31ff) || // bopomofo, kana extensions
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) || // extension A
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) || // unified ideographs
    (codePoint >= 0xac00 && codePoint <= 0xd7af) || // Hangul syllables
    (codePoint >= 0xf900 && codePoint <= 0xfaff) || // compatibility ideographs
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) || // compatibility forms
    (codePoint >= 0xff00 && codePoint <= 0xffef) || // full-width forms
    (codePoint >= 0x20000 && codePoint <= 0x2fa1f) // extensions B–F
  );
}

export function estimateTextTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const character of text) {
    if (isCjk(character.codePointAt(0) ?? 0)) cjk += 1;
    else other += 1;
  }
  return cjk + Math.ceil(other / LATIN_CHARS_PER_TOKEN);
}

/** What a provider sends for a tool result: the summary, else the raw result (see providers' toolResultText). */
export function toolResultText(message: MetonaMessage): string {
  const result = message.toolResult;
  if (!result) return message.content;
  const body =
    result.summary ??
    (typeof result.result === 'string' ? result.result : (JSON.stringify(result.result) ?? message.content));
  return result.success ? body : `Error: ${result.error ?? 'The tool failed.'}\n${body}`;
}

export function estimateMessageTokens(message: MetonaMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  tokens += estimateTextTokens(message.role === 'tool' ? toolResultText(message) : message.content);
  if (message.reasoningContent) tokens += estimateTextTokens(message.reasoningContent);
  for (const call of message.toolCalls ?? []) {
    tokens += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(call.name + JSON.stringify(call.args));
  }
  tokens += (message.images?.length ?? 0) * IMAGE_TOKENS;
  return tokens;
}

export function estimateMessagesTokens(messages: readonly MetonaMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

export function estimateSystemPromptTokens(systemPrompt: MetonaSystemPrompt): number {
  const text = [
    systemPrompt.roleDefinition,
    systemPrompt.outputConstraints,
    systemPrompt.safetyGuidelines,
    systemPrompt.dynamicReminders ?? '',
  ].join('\n\n');
  return MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(text);
}

export function estimateToolsTokens(tools: readonly MetonaToolDef[]): number {
  return tools.reduce(
    (sum, tool) =>
      sum +
      TOOL_OVERHEAD_TOKENS +
      estimateTextTokens(tool.name + tool.description + JSON.stringify(tool.parameters)),
    0,
  );
}

export function estimateRequestTokens(request: MetonaRequest): number {
  return (
    REQUEST_OVERHEAD_TOKENS +
    estimateSystemPromptTokens(request.systemPrompt) +
    estimateMessagesTokens(request.messages) +
    estimateToolsTokens(request.tools ?? [])
  );
}
