/** The benchmark's tool call, shared by bench/run.ts and the plain server's test. */

export type Revision = '2025-11-25' | '2026-07-28';

/**
 * get_offer_details of `offerId` (provider_b) as a client of `revision` sends it with `toolToken`: a
 * 2026-07-28 client adds the per-request `_meta` envelope and MCP's standard headers.
 */
export function toolCall(revision: Revision, toolToken: string, offerId: string): { method: 'POST'; headers: Record<string, string>; body: string } {
  const modern = revision === '2026-07-28';
  const params = { name: 'get_offer_details', arguments: { provider_id: 'provider_b', offer_id: offerId } };
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': revision,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  };
  return {
    method: 'POST',
    headers: {
      authorization: `Bearer ${toolToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(modern ? { 'mcp-protocol-version': revision, 'mcp-method': 'tools/call', 'mcp-name': 'get_offer_details' } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern ? { ...params, _meta: envelope } : params }),
  };
}
