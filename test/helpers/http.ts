/** A response body as JSON, typed loosely: tests assert its shape field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function jsonOf(response: Response): Promise<Json> {
  return response.json();
}
