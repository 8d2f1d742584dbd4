/** WebSocket close codes the agent uses (4000–4999 are for applications). */
export const CloseCode = {
  /** Wrong or missing X-Api-Key. */
  UNAUTHORIZED: 4401,
  /** The key already has its maximum number of connections. */
  TOO_MANY_CONNECTIONS: 4429,
  /** The server is shutting down (RFC 6455 "going away"). */
  GOING_AWAY: 1001,
  /** Shared state (Redis) unreachable: the connection could not be counted (RFC 6455 "try again later"). */
  TRY_AGAIN_LATER: 1013,
  /** A frame over the hard size limit (ws closes with this itself). */
  MESSAGE_TOO_BIG: 1009,
} as const;
