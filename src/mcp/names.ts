// The server's name and version, and the request keys a client may send: constants a client (the call CLI)
// needs without loading the server.

export const SERVER_NAME = "browser-workflow-mcp"
export const SERVER_VERSION = "0.1.0"

/**
 * Request `_meta` key with which a client sets one call's observation policy ("default", "none" or
 * "failures"), e.g. to skip the page observation on calls whose result is all it needs.
 */
export const OBSERVATION_META_KEY = "browser-workflow-mcp/observation"
