/**
 * A request with what fetch() will not send as given (a Host header, X-Forwarded-Host, an absolute
 * request target `GET http://host/path`): node:http sends it verbatim, as a client on the network could.
 */
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  /** The request line's target instead of the URL's path. */
  target?: string;
}

export function rawRequest(url: string, request: RawRequest = {}): Promise<RawResponse> {
  const { headers = {}, method = 'GET', body, target } = request;
  const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers: sent, ...(target ? { path: target } : {}) });
    outgoing.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
