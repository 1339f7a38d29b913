/**
 * Which browser origins may use /mcp (docs/agents.md#mcp-server). The MCP transport requires a server to refuse an
 * invalid Origin with 403, against DNS rebinding: a page on evil.example, its name pointed at 127.0.0.1, would
 * otherwise drive a gateway bound to this machine from a visitor's browser. The open CORS default of the other
 * paths (`*`, no credentials) does not fit here, so /mcp allows, besides a client that sends no Origin (not a
 * browser page):
 *
 * - the gateway's own origin (PUBLIC_URL's), with or without CORS_ORIGINS;
 * - a page served from this machine (localhost, 127.0.0.1, [::1], any port): no rebinding can name it, and a
 *   browser-based client such as the MCP Inspector runs there;
 * - each origin CORS_ORIGINS lists.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export class McpOriginGuard {
  private readonly ownOrigin: string;
  private readonly listed: ReadonlySet<string>;

  constructor(publicUrl: string, corsOrigins: readonly string[] | null) {
    this.ownOrigin = new URL(publicUrl).origin;
    this.listed = new Set(corsOrigins ?? []);
  }

  allows(origin: string | undefined): boolean {
    if (origin === undefined || origin === this.ownOrigin || this.listed.has(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
  }
}
