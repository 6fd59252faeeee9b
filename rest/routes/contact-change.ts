/**
 * The contact change, in three steps (specification: Contact-change payloads; decisions §2 for the
 * paths): the signed-in traveler's own, with `profile.write`.
 */
import type { Actor } from '../../core/actor.js';
import {
  ConfirmContactChangeRequest,
  InitiateContactChangeRequest,
  InitiatedContactChange,
  VerifiedContactIdentity,
  VerifyContactIdentityRequest,
  type ContactChanges,
} from '../../core/users/contact-change.js';
import { User } from '../../core/users/schemas.js';
import type { UserService } from '../../core/users/service.js';
import { defineRoute, type Route } from '../route-table.js';

export function contactChangeRoutes(deps: { changes: ContactChanges; users: UserService }): Route[] {
  const userId = (actor: Actor | undefined) => (actor as Actor).userId;
  // The codes go out by mail or SMS: a relay that fails is a 502.
  const common = {
    tags: ['Profile'],
    auth: 'api_key_and_bearer' as const,
    scope: 'profile.write' as const,
    errors: [404, 409, 410, 502],
    errorExamples: {
      404: { code: 'contact_change_not_found', message: 'There is no contact change with this session: start again with initiate.' },
      409: { code: 'contact_in_use', message: 'This e-mail address belongs to another account: choose another one.' },
      410: { code: 'code_expired', message: 'This code has expired (codes last 10 minutes): start again with initiate.' },
      429: { code: 'too_many_contact_changes', message: 'A contact change can be started 5 times an hour: wait, then start again.' },
      502: { code: 'mail_unavailable', message: 'The e-mail could not be sent just now: try again in a moment.' },
    },
  };
  return [
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/users/me/contact/initiate',
      operationId: 'initiateContactChange',
      summary: 'Start changing the e-mail or phone',
      description: 'Sends a code to the traveler’s current e-mail address. An e-mail used by another account is 409. A traveler may start 5 changes an hour, those refused with 409 included; the sixth is 429.',
      body: InitiateContactChangeRequest,
      responses: { 200: { description: 'The session to send back with that code.', schema: InitiatedContactChange } },
      handler: async ({ actor, body }) => ({ body: await deps.changes.initiate(userId(actor), body) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/users/me/contact/verify-identity',
      operationId: 'verifyContactChangeIdentity',
      summary: 'Prove it is the traveler',
      description: 'Takes the code sent to the current e-mail, then sends a code to the new contact (e-mail or SMS).',
      body: VerifyContactIdentityRequest,
      responses: { 200: { description: 'The access token for confirm (in the body, not a cookie).', schema: VerifiedContactIdentity } },
      handler: async ({ actor, body }) => ({ body: await deps.changes.verifyIdentity(userId(actor), body) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/users/me/contact/confirm',
      operationId: 'confirmContactChange',
      summary: 'Prove the new contact, and change it',
      description: 'Takes the code sent to the new contact; the new value reaches the profile and the next sign-in.',
      body: ConfirmContactChangeRequest,
      responses: { 200: { description: 'The traveler with the new contact.', schema: User } },
      handler: async ({ actor, body }) => {
        await deps.changes.confirm(userId(actor), body);
        return { body: await deps.users.getUser(userId(actor)) };
      },
    }),
  ];
}
