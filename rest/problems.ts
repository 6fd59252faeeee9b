/**
 * Failures of HTTP itself (no route, wrong method, unreadable body), as opposed to domain errors. Each
 * carries its status and a stable code; the error middleware renders both kinds in the same envelope.
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}
