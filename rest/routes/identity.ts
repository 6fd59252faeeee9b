/**
 * The identity API (Identity endpoints): an airline's backend, authenticated by its confidential OAuth
 * client's Basic credentials, resolves a traveler it recognized and links loyalty memberships to them.
 * Every refusal of a guid or token is the same 404 in the identity envelope (rest/error-handler.ts).
 */
import type { IdentityService } from '../../core/identity/service.js';
import { IdentityClaims, LoyaltyLinkRequest, LoyaltyLinkResult, LoyaltyUnlinkRequest, ResolveIdentityRequest } from '../../core/identity/schemas.js';
import { defineRoute, type ClientIdentity, type Route } from '../route-table.js';

/** Identity surface rule 3, as every operation's description repeats it. */
const ON_404 =
  'On a 404 (`unknown_guid` or `unknown_token`, the same body whatever the cause): the stored guid is dead. Delete it, re-recognize the traveler, and retry once; never retry a 404 without deleting first.';

const common = { tags: ['Identity'], auth: 'client_basic' as const, errors: [404] };

export function identityRoutes(deps: { identity: IdentityService }): Route[] {
  const clientOf = (client: ClientIdentity | undefined) => (client as ClientIdentity).clientId;
  return [
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/identity/resolve',
      operationId: 'resolveIdentity',
      summary: 'Resolve a recognized traveler into claims',
      description: [
        'Step 4 of the airline integration. Send exactly one of `recognition_token` (from the recognition component’s `onToken`: single use, 120 seconds, your client’s only) or `guid` (the pairwise GUID you stored: `svc_guid` of the code exchange, or `guid` of an earlier resolve).',
        'The answer is the same claim set for both, per the scopes the traveler grants your client right now (`profile.read`, `preferences.read`, `loyalty.read`): a scope they turned off on their Connected apps page is gone from the next resolve. The token path also returns `guid`: store it to resolve again later without a token.',
        'No user id, no bookings, nothing another airline sent. Claims are display data for this request: cache them for minutes at most, do not replicate them as a standing profile, and never treat them as authentication for account changes (gate your own use behind your own customer authentication).',
        ON_404,
      ].join('\n\n'),
      body: ResolveIdentityRequest,
      responses: {
        200: { description: 'The traveler’s claims.', schema: IdentityClaims, headers: { 'Cache-Control': '`no-store`: the claims are this request’s.' } },
      },
      handler: async ({ client, body }) => ({
        body: await deps.identity.resolve(clientOf(client), body),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/identity/loyalty-link',
      operationId: 'linkLoyaltyProgram',
      summary: 'Link a loyalty membership to a traveler',
      description: [
        'Step 5 of the airline integration. Links the membership you verified (`verification_method` records how) to the traveler behind `guid`; to link from a token-recognized session, resolve the token first and use the `guid` it returns. Does not need `loyalty.read`: the traveler sees the program in resolve answers only while they grant it.',
        'A repeat for the same guid and `program_code` replaces every field with what it sends (tier, points; optional fields left out are cleared) and answers 201 again. `loyalty_account_ref` is stored encrypted and never returned. The link belongs to the traveler and your client, not to the guid: it survives the traveler disconnecting and reconnecting your client (the new guid shows it).',
        ON_404,
      ].join('\n\n'),
      body: LoyaltyLinkRequest,
      status: 201,
      responses: { 201: { description: 'Linked (or refreshed).', schema: LoyaltyLinkResult } },
      handler: async ({ client, body }) => ({ body: await deps.identity.link(clientOf(client), body) }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/v1/identity/loyalty-link',
      operationId: 'unlinkLoyaltyProgram',
      summary: 'Unlink a loyalty membership',
      description: [
        'Removes the link of `program_code` from the traveler behind `guid`; the program disappears from resolve answers at once. Idempotent: a program that is not linked answers the same 200.',
        ON_404,
      ].join('\n\n'),
      body: LoyaltyUnlinkRequest,
      responses: {
        200: {
          description: 'Not linked (any more).',
          schema: LoyaltyLinkResult,
          examples: { unlinked: { summary: 'Unlinked', value: { linked: false, program_code: 'SKYMILES' } } },
        },
      },
      handler: async ({ client, body }) => ({ body: await deps.identity.unlink(clientOf(client), body) }),
    }),
  ];
}
