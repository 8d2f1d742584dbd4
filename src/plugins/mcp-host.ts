import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode as McpErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  ToolSchema,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError, isAbortError, isAppError } from '../contracts/errors';
import type { ErrorCode } from '../contracts/error-codes';
import {
  MCP_ACCEPTED_PROTOCOL_VERSIONS,
  MCP_MAX_RESULT_BYTES,
  type PluginHostStatusDto,
  type PluginHostStatusValue,
  type PluginTransport,
} from '../contracts/plugin-types';
import { toIsoUtc } from '../contracts/time';
import { systemClock, type Clock } from '../core/ids';
import {
  checkListedTools,
  type ListedTool,
  type PluginTool,
  type ToolExpectations,
} from './tool-definitions';
import { TransportFault, utf8Length } from './transport-fault';

/** Where a host's tools go: all of a plugin's at once, or none. */
export interface ToolSink {
  publish(pluginId: string, tools: readonly PluginTool[]): void;
  withdraw(pluginId: string): void;
}

export interface McpHostOptions extends ToolExpectations {
  transport: PluginTransport;
  /** A fresh transport per start; it may fail (PLUGIN_HOST_START_FAILED). */
  connect: () => Promise<Transport> | Transport;
  sink: ToolSink;
  startupTimeoutMs?: number;
  toolTimeoutMs?: number;
  maxResultBytes?: number;
  /** Pages of `tools/list` followed before the list is refused. */
  maxListPages?: number;
  /** Told once when a ready host breaks (crash, invalid message); the plugin goes to `error`. */
  onUnhealthy?: (error: AppError) => void;
  clock?: Clock;
}

/** A `tools/call` outcome in project terms (§7.1 ToolResult). */
export interface McpToolOutcome {
  content: CallToolResult['content'];
  structured_content: Record<string, unknown> | null;
  /** The text parts joined: what a model reads. */
  text: string;
}

const CLIENT_INFO = { name: 'notesagent', version: '0.1.0' };
const DEFAULT_STARTUP_MS = 30_000;
const DEFAULT_TOOL_MS = 30_000;
const DEFAULT_MAX_PAGES = 32;

function hostError(code: ErrorCode, message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError(code, message, details);
}

/**
 * The transport the client sees: the real one, plus the negotiated protocol
 * version (the client reports it through `setProtocolVersion`) and the time
 * the server was last heard from.
 */
class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  protocolVersion: string | null = null;
  lastSeen: number | null = null;

  constructor(
    private readonly inner: Transport,
    private readonly clock: Clock,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message) => {
      this.lastSeen = this.clock();
      this.onmessage?.(message);
    };
  }

  async start(): Promise<void> {
    try {
      await this.inner.start();
    } catch (error) {
      // A transport that knows the reason (the companion's refusal) keeps its code.
      if (error instanceof TransportFault || isAppError(error)) throw error;
      throw new TransportFault(
        'start_failed',
        error instanceof Error ? error.message : 'the server did not start',
      );
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}

/** A tools/list page read without the SDK's per-tool checks, to find the tool that failed them. */
const LOOSE_TOOL_PAGE = z.looseObject({ tools: z.array(z.unknown()) });

const MCP_PREFIX = /^(?:MCP error -?\d+:\s*)+/;
/** How the SDK's server words a tool result that is not MCP's shape (sent as -32602). */
const INVALID_RESULT = /^Invalid tools\/call result:\s*/;

/** The SDK rejects an answer that is not MCP's shape with the ZodError itself (`$ZodError`, zod's core). */
function isZodError(error: unknown): error is { issues: { path: PropertyKey[]; message: string }[] } {
  return (
    error instanceof Error &&
    /^\$?ZodError$/.test(error.name) &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/** Zod issues as "path: message" pairs, the first few; the SDK also sends them as JSON text. */
function issueList(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'result'}: ${issue.message}`)
    .join('; ');
}

/** An answer the SDK refused as not MCP's shape, naming the fields (a tool's result, or the tool list). */
function invalidAnswer(
  pluginId: string,
  what: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const listed = issueList(issues).slice(0, 300);
  return what === 'tools/list'
    ? `The plugin "${pluginId}" answered tools/list with a list that is not valid MCP: ${listed}`
    : `The tool ${what} ran but returned a result that is not valid MCP (a tool returns ` +
        `{ content: [{ type: "text", text: "…" }] }): ${listed}`;
}

/**
 * A JSON-RPC error the server sent, in words that say what happened: -32603 is
 * the tool itself failing (it ran), -32602 an argument or result the server's own
 * SDK refused. The SDK's "MCP error <code>:" prefix is dropped (the server's
 * message often carries its own, so it came twice).
 */
function serverMessage(error: McpError): string {
  return error.message.replace(MCP_PREFIX, '');
}

function serverErrorText(pluginId: string, what: string, error: McpError): string {
  let message = serverMessage(error);
  const result = INVALID_RESULT.exec(message);
  if (result) {
    const rest = message.slice(result[0].length);
    let issues: { path: PropertyKey[]; message: string }[] = [{ path: [], message: rest }];
    try {
      const parsed: unknown = JSON.parse(rest);
      if (Array.isArray(parsed)) issues = parsed as typeof issues;
    } catch {
      // Not the SDK's JSON list: keep the text.
    }
    return invalidAnswer(pluginId, what, issues);
  }
  message = message.slice(0, 300) || 'no details';
  switch (error.code) {
    case McpErrorCode.InternalError:
      if (what === 'tools/list') break;
      return `The tool ${what} failed with an error in the plugin "${pluginId}": ${message}`;
    case McpErrorCode.InvalidParams:
      return `The plugin "${pluginId}" refused the arguments of ${what}: ${message}`;
    case McpErrorCode.MethodNotFound:
      return `The plugin "${pluginId}" does not answer ${what}: ${message}`;
  }
  return `The plugin "${pluginId}" answered ${what} with an error: ${message}`;
}

/**
 * One plugin's MCP server (§7.1–7.2), whatever carries its messages: the SDK
 * client does the protocol; this class owns the status, the tool checks and
 * their all-or-nothing publication, result limits, cancellation and what a
 * crash does (tools withdrawn at once, status `unhealthy`).
 */
export class McpHost {
  readonly #options: McpHostOptions;
  readonly #clock: Clock;
  #status: PluginHostStatusValue = 'stopped';
  #error: { code: string; message: string } | null = null;
  /** Why the last ready connection broke, for the calls it cut off. */
  #fault: { kind: string; reason: string } | null = null;
  #startedAt: number | null = null;
  #client: Client | undefined;
  #transport: ObservedTransport | undefined;
  #tools = new Map<string, PluginTool>();
  #serverName: string | null = null;
  #serverVersion: string | null = null;
  /** Bumped on each start/stop, so callbacks of an old connection do nothing. */
  #generation = 0;
  readonly #inFlight = new Map<string, AbortController>();
  #starting: Promise<PluginHostStatusDto> | undefined;

  constructor(options: McpHostOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  get pluginId(): string {
    return this.#options.pluginId;
  }

  status(): PluginHostStatusDto {
    const lastSeen = this.#transport?.lastSeen ?? null;
    return {
      plugin_id: this.#options.pluginId,
      backend_type: 'mcp',
      transport: this.#options.transport,
      status: this.#status,
      tools_count: this.#status === 'ready' ? this.#tools.size : 0,
      started_at: this.#startedAt === null ? null : toIsoUtc(this.#startedAt),
      last_seen_at: lastSeen === null ? null : toIsoUtc(lastSeen),
      protocol_version: this.#transport?.protocolVersion ?? null,
      server_name: this.#serverName,
      server_version: this.#serverVersion,
      error: this.#error,
    };
  }

  /** The tools currently published (all, including command targets). */
  tools(): PluginTool[] {
    return this.#status === 'ready' ? [...this.#tools.values()] : [];
  }

  /** Connects, negotiates, lists and checks the tools, then publishes them at once. */
  start(): Promise<PluginHostStatusDto> {
    if (this.#status === 'ready') return Promise.resolve(this.status());
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(): Promise<PluginHostStatusDto> {
    const generation = ++this.#generation;
    this.#status = 'starting';
    this.#error = null;
    this.#fault = null;
    this.#tools = new Map();
    this.#options.sink.withdraw(this.pluginId);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      let inner: Transport;
      try {
        inner = await this.#options.connect();
      } catch (error) {
        if (isAppError(error)) throw error;
        // The module's own error (it threw while loading) is all its author has to go on.
        const reason = error instanceof TransportFault ? error.message.slice(0, 300) : null;
        throw hostError(
          'PLUGIN_HOST_START_FAILED',
          `The plugin "${this.pluginId}" could not be started${reason ? `: ${reason}` : '.'}`,
          { plugin_id: this.pluginId, ...(reason ? { reason } : {}) },
        );
      }
      const transport = new ObservedTransport(inner, this.#clock);
      this.#transport = transport;
      this.#client = client;
      client.onerror = (error) => {
        if (generation === this.#generation && error instanceof TransportFault) this.#break(error);
      };
      client.onclose = () => {
        if (generation !== this.#generation) return;
        this.#break(new TransportFault('exited', 'the server closed the connection'));
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (generation === this.#generation && this.#status === 'ready')
          void this.refreshTools().catch(() => {});
      });
      try {
        await client.connect(transport, { timeout: this.#options.startupTimeoutMs ?? DEFAULT_STARTUP_MS });
      } catch (error) {
        if (isAppError(error)) throw error;
        if (error instanceof TransportFault && error.kind === 'start_failed') {
          throw hostError('PLUGIN_HOST_START_FAILED', `The plugin "${this.pluginId}" could not be started.`, {
            plugin_id: this.pluginId,
            reason: error.message,
          });
        }
        throw hostError(
          'MCP_INITIALIZE_FAILED',
          `The plugin "${this.pluginId}" did not complete the MCP handshake.`,
          {
            plugin_id: this.pluginId,
            reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
          },
        );
      }
      const version = transport.protocolVersion;
      if (version === null || !(MCP_ACCEPTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
        throw hostError(
          'MCP_INITIALIZE_FAILED',
          `The plugin "${this.pluginId}" speaks an MCP version this app does not accept.`,
          {
            plugin_id: this.pluginId,
            protocol_version: version,
          },
        );
      }
      if (!client.getServerCapabilities()?.tools) {
        throw hostError('MCP_CAPABILITY_UNSUPPORTED', `The plugin "${this.pluginId}" offers no MCP tools.`, {
          plugin_id: this.pluginId,
          capability: 'tools',
        });
      }
      const info = client.getServerVersion();
      this.#serverName = info?.name?.slice(0, 100) ?? null;
      this.#serverVersion = info?.version?.slice(0, 50) ?? null;
      const tools = await this.#listTools(client);
      if (generation !== this.#generation)
        throw hostError('PLUGIN_HOST_UNAVAILABLE', 'The plugin was stopped.');
      this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
      this.#status = 'ready';
      this.#startedAt = this.#clock();
      this.#options.sink.publish(this.pluginId, this.#agentTools(tools));
      return this.status();
    } catch (error) {
      const failure = isAppError(error)
        ? error
        : hostError('PLUGIN_HOST_START_FAILED', `The plugin "${this.pluginId}" could not be started.`, {
            plugin_id: this.pluginId,
          });
      if (generation === this.#generation) {
        this.#generation++;
        this.#status = 'error';
        this.#error = { code: failure.code, message: failure.message };
        this.#tools = new Map();
        this.#options.sink.withdraw(this.pluginId);
      }
      await client.close().catch(() => {});
      throw failure;
    }
  }

  /** Lists again (after `list_changed`, or on demand) and republishes, all or nothing. */
  async refreshTools(): Promise<PluginTool[]> {
    const client = this.#readyClient();
    const generation = this.#generation;
    try {
      const tools = await this.#listTools(client);
      if (generation !== this.#generation) return [];
      this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
      this.#options.sink.publish(this.pluginId, this.#agentTools(tools));
      return tools;
    } catch (error) {
      // A server whose tools stop matching its manifest is not trusted with the old ones either.
      const failure = isAppError(error)
        ? error
        : hostError('PLUGIN_HOST_UNHEALTHY', 'The plugin stopped answering.');
      if (generation === this.#generation) this.#break(failure);
      throw failure;
    }
  }

  async #listTools(client: Client): Promise<PluginTool[]> {
    const listed: ListedTool[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    const maxPages = this.#options.maxListPages ?? DEFAULT_MAX_PAGES;
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw hostError(
          'MCP_TOOL_SCHEMA_INVALID',
          `The plugin "${this.pluginId}" lists too many pages of tools.`,
          {
            plugin_id: this.pluginId,
            reason: 'too many pages',
          },
        );
      }
      let result;
      try {
        result = await client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: this.#options.startupTimeoutMs ?? DEFAULT_STARTUP_MS,
        });
      } catch (error) {
        if (isZodError(error)) await this.#explainToolList(client, cursor);
        throw this.#callFailure(error, 'MCP_INITIALIZE_FAILED', 'tools/list');
      }
      listed.push(...(result.tools as ListedTool[]));
      if (result.nextCursor === undefined) break;
      if (cursors.has(result.nextCursor)) {
        throw hostError(
          'MCP_TOOL_SCHEMA_INVALID',
          `The plugin "${this.pluginId}" repeats a tools/list cursor.`,
          {
            plugin_id: this.pluginId,
            reason: 'repeated cursor',
          },
        );
      }
      cursors.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    return checkListedTools(listed, this.#options);
  }

  /**
   * The SDK refused a tools/list page as a whole; asked again loosely, the same page
   * says which tool lacks what (a missing `inputSchema` is the usual one), as the
   * tool checks word it. Returns when it cannot tell.
   */
  async #explainToolList(client: Client, cursor: string | undefined): Promise<void> {
    let tools: unknown[];
    try {
      const page = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        LOOSE_TOOL_PAGE,
        { timeout: this.#options.startupTimeoutMs ?? DEFAULT_STARTUP_MS },
      );
      tools = page.tools;
    } catch {
      return;
    }
    for (const entry of tools) {
      const parsed = ToolSchema.safeParse(entry);
      if (parsed.success) continue;
      const name = (entry as { name?: unknown }).name;
      const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'tool')))];
      if (typeof name !== 'string') checkListedTools([entry as ListedTool], this.#options);
      const noSchema = (entry as { inputSchema?: unknown }).inputSchema === undefined;
      const what = noSchema
        ? 'no inputSchema (every tool needs an object JSON Schema there)'
        : `an invalid ${fields.join(', ')}`;
      throw new AppError(
        'MCP_TOOL_SCHEMA_INVALID',
        `The plugin "${this.pluginId}" offers the tool "${String(name)}" with ${what}.`,
        {
          plugin_id: this.pluginId,
          tool: name,
          problem: fields.includes('inputSchema') ? 'schema_not_object' : 'schema_invalid',
          fields,
        },
      );
    }
  }

  /** Command targets stay with the host; only `contributes.tools` reach the agent. */
  #agentTools(tools: readonly PluginTool[]): PluginTool[] {
    const timeout_ms = this.#options.toolTimeoutMs ?? DEFAULT_TOOL_MS;
    return tools
      .filter((tool) => this.#options.agentTools.includes(tool.name))
      .map((tool) => ({ ...tool, timeout_ms }));
  }

  #readyClient(): Client {
    if (this.#status === 'unhealthy') {
      throw hostError('PLUGIN_HOST_UNHEALTHY', `The plugin "${this.pluginId}" is not healthy; restart it.`, {
        plugin_id: this.pluginId,
      });
    }
    if (this.#status !== 'ready' || !this.#client) {
      throw hostError('PLUGIN_HOST_UNAVAILABLE', `The plugin "${this.pluginId}" is not running.`, {
        plugin_id: this.pluginId,
        status: this.#status,
      });
    }
    return this.#client;
  }

  /**
   * `tools/call` for a published tool (namespaced name). Cancelling through
   * `signal` or `cancel(requestId)` sends `notifications/cancelled` to the
   * server (the SDK does) and rejects at once with an AbortError.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; requestId?: string } = {},
  ): Promise<McpToolOutcome> {
    const client = this.#readyClient();
    const tool = this.#tools.get(name);
    if (!tool) {
      throw hostError('RESOURCE_NOT_FOUND', `The plugin "${this.pluginId}" has no tool "${name}".`, {
        tool: name,
      });
    }
    const issues = tool.compiled.validate(args);
    if (issues.length > 0) {
      throw hostError('VALIDATION_FAILED', `Invalid arguments for ${name}.`, { tool: name, fields: issues });
    }
    const controller = new AbortController();
    const forward = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', forward, { once: true });
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    if (options.requestId !== undefined) this.#inFlight.set(options.requestId, controller);
    try {
      const result = (await client.callTool({ name: tool.tool_name, arguments: args }, undefined, {
        signal: controller.signal,
        timeout: this.#options.toolTimeoutMs ?? DEFAULT_TOOL_MS,
      })) as CallToolResult;
      const maxBytes = this.#options.maxResultBytes ?? MCP_MAX_RESULT_BYTES;
      const size = utf8Length(JSON.stringify(result));
      if (size > maxBytes) {
        throw hostError(
          'MCP_TOOL_RESULT_TOO_LARGE',
          `The result of ${name} is larger than ${maxBytes} bytes.`,
          {
            tool: name,
            size,
            limit: maxBytes,
          },
        );
      }
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
      if (result.isError) {
        throw hostError(
          'MCP_TOOL_CALL_FAILED',
          `The tool ${name} failed: ${text.slice(0, 500) || 'no details'}`,
          // The tool ran: its own words are what the settings page's Try shows.
          { tool: name, tool_message: text.slice(0, 500) },
        );
      }
      return {
        content,
        structured_content: (result.structuredContent as Record<string, unknown> | undefined) ?? null,
        text,
      };
    } catch (error) {
      if (controller.signal.aborted) {
        throw new DOMException(`The call to ${name} was cancelled.`, 'AbortError');
      }
      throw this.#callFailure(error, 'MCP_TOOL_CALL_FAILED', name);
    } finally {
      options.signal?.removeEventListener('abort', forward);
      if (options.requestId !== undefined) this.#inFlight.delete(options.requestId);
    }
  }

  /** Cancels one in-flight call by the id its caller gave (§7.1 `cancel`). */
  cancel(requestId: string): boolean {
    const controller = this.#inFlight.get(requestId);
    if (!controller) return false;
    controller.abort(new DOMException('cancelled', 'AbortError'));
    return true;
  }

  #callFailure(error: unknown, code: ErrorCode, what: string): AppError {
    if (isAppError(error)) return error;
    if (isAbortError(error)) return hostError('JOB_CANCELLED', 'The call was cancelled.');
    const details = { plugin_id: this.pluginId };
    if (isZodError(error)) {
      // The server answered, but not in MCP's shape; the SDK's raw issue list helps nobody.
      return hostError(code, invalidAnswer(this.pluginId, what, error.issues), {
        ...details,
        reason: 'invalid_result',
      });
    }
    if (error instanceof McpError) {
      if (error.code === McpErrorCode.RequestTimeout) {
        return hostError(code, `The plugin "${this.pluginId}" did not answer ${what} in time.`, {
          ...details,
          reason: 'timeout',
        });
      }
      if (error.code === McpErrorCode.ConnectionClosed || this.#status === 'unhealthy') {
        return this.#stoppedWhileAnswering();
      }
      return hostError(code, serverErrorText(this.pluginId, what, error), {
        ...details,
        mcp_code: error.code,
        // The server's own SDK refused the tool's result: the same fault as one this client refuses.
        ...(INVALID_RESULT.test(serverMessage(error)) && { reason: 'invalid_result' }),
        ...(error.code === McpErrorCode.InternalError && {
          tool_message: serverMessage(error).slice(0, 500),
        }),
      });
    }
    if (this.#status === 'unhealthy') return this.#stoppedWhileAnswering();
    return hostError(code, `The plugin "${this.pluginId}" failed on ${what}.`, details);
  }

  /**
   * A call cut off because the server broke: the break's own reason (an oversized
   * message, a crash) and what to do, since the caller — often a model — sees only this.
   */
  #stoppedWhileAnswering(): AppError {
    const fault = this.#fault;
    return hostError(
      'PLUGIN_HOST_UNHEALTHY',
      `The plugin "${this.pluginId}" stopped while answering${fault ? `: ${fault.reason}` : ''}. ` +
        'Restart the plugin in Settings → Plugins.',
      { plugin_id: this.pluginId, ...(fault && { reason: fault.kind, detail: fault.reason }) },
    );
  }

  /** A ready (or starting) host that broke: tools out first, then the status, then the plugin. */
  #break(reason: TransportFault | AppError): void {
    if (this.#status !== 'ready' && this.#status !== 'starting') return;
    this.#generation++;
    this.#options.sink.withdraw(this.pluginId);
    this.#tools = new Map();
    const error =
      reason instanceof AppError
        ? reason
        : hostError(
            'PLUGIN_HOST_UNHEALTHY',
            `The plugin "${this.pluginId}" stopped working: ${reason.message}.`,
            {
              plugin_id: this.pluginId,
              reason: reason.kind,
            },
          );
    this.#status = 'unhealthy';
    this.#error = { code: error.code, message: error.message };
    this.#fault =
      reason instanceof AppError
        ? { kind: reason.code, reason: reason.message }
        : { kind: reason.kind, reason: reason.message };
    const client = this.#client;
    this.#client = undefined;
    void client?.close().catch(() => {});
    this.#options.onUnhealthy?.(error);
  }

  /** Stops the server; its tools are withdrawn first. */
  async stop(): Promise<PluginHostStatusDto> {
    this.#generation++;
    this.#options.sink.withdraw(this.pluginId);
    this.#tools = new Map();
    const client = this.#client;
    this.#client = undefined;
    this.#status = 'stopped';
    this.#error = null;
    this.#startedAt = null;
    await client?.close().catch(() => {});
    return this.status();
  }

  /** Old tools out, then a fresh start; the caller decides whether the plugin may run. */
  async restart(): Promise<PluginHostStatusDto> {
    await this.stop();
    return this.start();
  }
}
