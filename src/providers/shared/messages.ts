import type {
  MetonaGenerationParams,
  MetonaMessage,
  MetonaRequest,
  MetonaSystemPrompt,
  MetonaToolDef,
} from '../../ir';

/**
 * The standard keeps the system prompt in sections; every provider gets them
 * joined in their order (role, output rules, safety, then the dynamic tail,
 * which goes last so the static head stays cacheable).
 */
export function assembleSystemPrompt(systemPrompt: MetonaSystemPrompt): string {
  return [
    systemPrompt.roleDefinition,
    systemPrompt.outputConstraints,
    systemPrompt.safetyGuidelines,
    systemPrompt.dynamicReminders,
  ]
    .map((section) => section?.trim() ?? '')
    .filter((section) => section !== '')
    .join('\n\n');
}

/** `constraints.allowedTools` narrows the tool list of this round. */
export function toolsForRequest(request: MetonaRequest): MetonaToolDef[] {
  const tools = request.tools ?? [];
  const allowed = request.constraints?.allowedTools;
  if (!allowed) return tools;
  const names = new Set(allowed);
  return tools.filter((tool) => names.has(tool.name));
}

/** What the model reads for a tool result: the summary the standard reserves for it, else the raw result. */
export function toolResultText(message: MetonaMessage): string {
  const result = message.toolResult;
  if (!result) return message.content;
  let text: string;
  if (result.summary !== undefined) text = result.summary;
  else if (typeof result.result === 'string') text = result.result;
  else if (result.result === undefined) text = message.content;
  else text = JSON.stringify(result.result);
  if (!result.success) {
    const reason = result.error ?? 'The tool failed.';
    return text ? `Error: ${reason}\n${text}` : `Error: ${reason}`;
  }
  return text;
}

export interface DataUri {
  mediaType: string;
  base64: string;
}

/** `data:image/png;base64,AAAA` to its parts; undefined for any other URL. */
export function parseDataUri(url: string): DataUri | undefined {
  const match = /^data:([^;,]+)?((?:;[^;,]+)*?);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? 'application/octet-stream', base64: match[3] ?? '' };
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

/**
 * Whether this request asks for thinking: `thinkingEnabled` decides; an effort
 * given without it counts as a yes. Undefined: the request does not say, so the
 * provider's default applies and no switch is sent.
 */
export function thinkingRequested(params: MetonaGenerationParams): boolean | undefined {
  if (params.thinkingEnabled !== undefined) return params.thinkingEnabled;
  return params.thinkingEffort !== undefined ? true : undefined;
}
