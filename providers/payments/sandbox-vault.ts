/**
 * How the processor sandbox reads a card: from the card vault over HTTP, with the processor's own key
 * (Basis Theory's detokenize). The vault answers the number and expiry, and the security code only the
 * first time (it erases it after one read), so the code is checked only when it comes.
 */
import got from 'got';
import { z } from 'zod';

const Detokenized = z.object({
  id: z.string(),
  data: z.object({
    number: z.string().regex(/^\d{12,19}$/),
    expiration_month: z.coerce.number().int().min(1).max(12),
    expiration_year: z.coerce.number().int().min(2000).max(2200),
    cvc: z.string().regex(/^\d{3,4}$/).optional().nullable(),
  }),
});
export type VaultedCard = z.infer<typeof Detokenized>['data'];

/** The vault does not know the token (or refuses it as malformed): the processor's "No such PaymentMethod". */
export class UnknownToken extends Error {}
/** The vault failed or cannot be reached: the processor's own failure. */
export class VaultUnavailable extends Error {}

const VAULT_TIMEOUT_MS = 5_000;

export function vaultReader(vaultUrl: string, vaultKey: string) {
  const http = got.extend({
    prefixUrl: vaultUrl.replace(/\/+$/, ''),
    headers: { 'bt-api-key': vaultKey, accept: 'application/json' },
    retry: { limit: 0 },
    throwHttpErrors: false,
    timeout: { request: VAULT_TIMEOUT_MS },
  });
  return async function detokenize(tokenId: string): Promise<VaultedCard> {
    let response;
    try {
      response = await http.post('detokenize', { json: { token_id: tokenId }, responseType: 'text' });
    } catch (error) {
      throw new VaultUnavailable('the vault did not answer', { cause: error });
    }
    if (response.statusCode === 404 || response.statusCode === 400 || response.statusCode === 422) throw new UnknownToken(tokenId);
    if (response.statusCode !== 200) throw new VaultUnavailable(`the vault answered ${response.statusCode}`);
    let parsed;
    try {
      parsed = Detokenized.safeParse(JSON.parse(response.body));
    } catch {
      throw new VaultUnavailable('the vault answered something other than JSON');
    }
    if (!parsed.success) throw new VaultUnavailable('the vault answered a card we cannot read');
    return parsed.data.data;
  };
}
