/**
 * Saved payment methods (specification: Payment methods; decisions §2 and §8). Partners send their API
 * key and the traveler's token (`payments.read` to read, `payments.write` to change); the traveler's own
 * browser (the card-capture component) sends its first-party session instead, with `x-csrf-token` on
 * changes. `{userid}` is `me` or the traveler's own id; another traveler's payment method id is a 404.
 * Cards are added only from card-vault tokens: a bare POST of card details is not part of the API.
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import { ValidationError } from '../../core/errors.js';
import { FromTokenRequest, PaymentMethod, PaymentMethodEdit, TokenizationSession } from '../../core/payment-methods/schemas.js';
import type { PaymentMethodService } from '../../core/payment-methods/service.js';
import { resolveUserId, UserIdParam } from '../../core/users/access.js';
import type { UserService } from '../../core/users/service.js';
import { defineRoute, type Route } from '../route-table.js';

const Created = z.object({ id: z.uuid() }).meta({ id: 'Created', examples: [{ id: 'b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68' }] });
const UserPath = z.object({ userid: UserIdParam });
const MethodPath = UserPath.extend({
  methodid: z.string().meta({ description: 'The payment method’s id.', examples: ['6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'] }),
});
const SessionQuery = z.object({
  origin: z
    .string()
    .max(2000)
    .describe('The exact origin (scheme, host and port) of the page that frames the hosted card fields: their messages go to it only.'),
});

const METHOD_NOT_FOUND = {
  code: 'payment_method_not_found',
  message: 'There is no payment method 6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f of this traveler: list them with GET /v1/users/me/payment-methods.',
};
const USER_NOT_FOUND = { code: 'user_not_found', message: 'The traveler of this token no longer exists: sign them in again.' };

export interface PaymentMethodRouteDeps {
  paymentMethods: PaymentMethodService;
  users: UserService;
  /** Origins whose pages may frame the hosted card fields: the API's, the sign-in pages', COMPONENT_ORIGINS. */
  componentOrigins: string[];
}

export function paymentMethodRoutes(deps: PaymentMethodRouteDeps): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  const common = { tags: ['Payment methods'], auth: 'api_key_and_bearer_or_session' as const };
  const allowed = new Set(deps.componentOrigins);
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/payment-methods',
      operationId: 'listPaymentMethods',
      summary: 'The traveler’s saved payment methods',
      description: 'Network, last four digits, expiry and default flag of each; the default first, then the newest. Card numbers never leave the card vault.',
      scope: 'payments.read',
      params: UserPath,
      errors: [400, 404],
      errorExamples: { 404: USER_NOT_FOUND },
      responses: { 200: { description: 'The payment methods.', schema: z.array(PaymentMethod) } },
      handler: async ({ actor, params }) => ({ body: await deps.paymentMethods.list(await user(actor, params.userid)) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/payment-methods/{methodid}',
      operationId: 'getPaymentMethod',
      summary: 'A saved payment method',
      description: 'One payment method of the traveler; another traveler’s, or one that was deleted, is a 404.',
      scope: 'payments.read',
      params: MethodPath,
      errors: [400, 404],
      errorExamples: { 404: METHOD_NOT_FOUND },
      responses: { 200: { description: 'The payment method.', schema: PaymentMethod } },
      handler: async ({ actor, params }) => ({ body: await deps.paymentMethods.get(await user(actor, params.userid), params.methodid) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/users/{userid}/payment-methods/from-token',
      operationId: 'createPaymentMethodFromToken',
      summary: 'Save a card from a card-vault token',
      description:
        'Exchanges a card-vault token, made by the hosted card fields in this traveler’s own session, for a payment method. The network, last four digits and expiry are read from the vault. The traveler’s first card becomes the default unless `isDefault` is false; `isDefault: true` makes it the default in place of the previous one. A token made in another traveler’s session is refused like an unknown one.',
      scope: 'payments.write',
      params: UserPath,
      body: FromTokenRequest,
      status: 201,
      errors: [400, 404, 409, 422, 502, 504],
      errorExamples: {
        400: {
          code: 'validation_error',
          message: 'The request is not valid: see `fields` for each rule that failed.',
          fields: {
            vaultToken: {
              field: 'vaultToken',
              rule: 'vault_token',
              message:
                'vaultToken is not a card token made in this traveler’s session (or it expired, or was removed): have the traveler enter the card again in the hosted card fields',
            },
          },
        },
        404: USER_NOT_FOUND,
        409: { code: 'payment_method_exists', message: 'This card token is already saved as a payment method: list them with GET /v1/users/me/payment-methods.' },
        422: { code: 'card_brand_not_accepted', message: 'This card’s network is not accepted: use a Visa, Mastercard, American Express or Discover card.' },
        502: { code: 'payment_unavailable', message: 'The card vault is not answering just now: try again in a moment.' },
      },
      responses: { 201: { description: 'The new payment method’s id.', schema: Created } },
      handler: async ({ actor, params, body }) => ({ status: 201, body: await deps.paymentMethods.fromToken(await user(actor, params.userid), body) }),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: '/v1/users/{userid}/payment-methods/{methodid}',
      operationId: 'updatePaymentMethod',
      summary: 'Change a saved payment method',
      description:
        'Changes the fields sent: expiry and default flag on every payment method; cardholder name and billing ZIP (kept in the card vault) on vault-backed cards only. `isDefault: true` clears the previous default in the same transaction; `isDefault: false` on the default leaves the traveler without one. An expiry already past is refused. A new card number is a new payment method.',
      scope: 'payments.write',
      params: MethodPath,
      body: PaymentMethodEdit,
      errors: [400, 404, 422, 502, 504],
      errorExamples: {
        404: METHOD_NOT_FOUND,
        422: {
          code: 'legacy_payment_method',
          message:
            'This card was carried over from our previous payment processor and has no cardholder name or billing ZIP to change: change its expiry or default flag, or have the traveler add the card again through the hosted card fields.',
        },
        502: { code: 'payment_unavailable', message: 'The card vault is not answering just now: try again in a moment.' },
      },
      responses: { 200: { description: 'The payment method as it is now.', schema: PaymentMethod } },
      handler: async ({ actor, params, body }) => ({ body: await deps.paymentMethods.edit(await user(actor, params.userid), params.methodid, body) }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/v1/users/{userid}/payment-methods/{methodid}',
      operationId: 'deletePaymentMethod',
      summary: 'Delete a saved payment method',
      description:
        'Deletes the payment method; the card vault’s copy is redacted afterwards, best effort (the payment method is gone whatever the vault answers). Bookings keep their own copy of the network and last four digits.',
      scope: 'payments.write',
      params: MethodPath,
      errors: [400, 404],
      errorExamples: { 404: METHOD_NOT_FOUND },
      status: 204,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ actor, params }) => {
        await deps.paymentMethods.delete(await user(actor, params.userid), params.methodid);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/payments/tokenization-session',
      operationId: 'openTokenizationSession',
      tags: ['Payment methods'],
      auth: 'session',
      hidden: true,
      summary: 'Hosted card fields’ session (first-party)',
      description:
        'For the card-capture component in the traveler’s own browser, not for partners: a card-vault session key (10 minutes, this traveler’s tokens only) for the hosted card fields framed by `origin`, and the CSRF token of this browser session.',
      query: SessionQuery,
      errors: [400, 502, 504],
      errorExamples: {
        400: {
          code: 'validation_error',
          message: 'The request is not valid: see `fields` for each rule that failed.',
          fields: {
            origin: {
              field: 'origin',
              rule: 'allowed_origin',
              message: 'origin https://elsewhere.example may not frame the hosted card fields: use the page’s exact origin, one of the service’s own or COMPONENT_ORIGINS',
            },
          },
        },
      },
      responses: { 200: { description: 'The session.', schema: TokenizationSession, headers: { 'Cache-Control': '`no-store`: the key is for this browser only.' } } },
      handler: async ({ actor, query, csrfToken }) => {
        if (!allowed.has(query.origin)) {
          throw new ValidationError([
            {
              field: 'origin',
              rule: 'allowed_origin',
              message: `origin ${query.origin.slice(0, 200)} may not frame the hosted card fields: use the page’s exact origin (scheme, host and port), one of the service’s own or those listed in COMPONENT_ORIGINS`,
            },
          ]);
        }
        const session = await deps.paymentMethods.openTokenizationSession((actor as Actor).userId, query.origin);
        return { body: { ...session, csrfToken: csrfToken as string }, headers: { 'Cache-Control': 'no-store' } };
      },
    }),
  ];
}
