/**
 * The traveler's profile: `GET /v1/users/me` and `/v1/users/{userid}` (`profile.read`), `PUT
 * /v1/users/{userid}` (`profile.write`). `{userid}` is `me` or the traveler's own id (decisions §2).
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import { resolveUserId, UserIdParam } from '../../core/users/access.js';
import type { UserService } from '../../core/users/service.js';
import { UpdateUserRequest, User } from '../../core/users/schemas.js';
import { defineRoute, type Route } from '../route-table.js';

const UserPath = z.object({ userid: UserIdParam });

export function userRoutes(deps: { users: UserService }): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/users/me',
      operationId: 'getCurrentUser',
      summary: 'The signed-in traveler',
      description: "The profile of the traveler whose access token is sent. Needs the partner's API key and the token with `profile.read`.",
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.read',
      responses: { 200: { description: 'The traveler.', schema: User } },
      errors: [404],
      handler: async ({ actor }) => ({ body: await deps.users.getUser((actor as NonNullable<typeof actor>).userId) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/users/{userid}',
      operationId: 'getUser',
      summary: 'A traveler',
      description: '`me` or the traveler’s own id; another traveler’s id is 403.',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.read',
      params: UserPath,
      responses: { 200: { description: 'The traveler.', schema: User } },
      errors: [404],
      handler: async ({ actor, params }) => ({ body: await deps.users.getUser(await user(actor, params.userid)) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/users/{userid}',
      operationId: 'updateUser',
      summary: 'Change the traveler’s profile',
      description: 'The fields sent change; `email` and `phone_number` are ignored (they change through the contact change).',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.write',
      params: UserPath,
      body: UpdateUserRequest,
      responses: { 200: { description: 'The traveler as it is now.', schema: User } },
      errors: [404],
      handler: async ({ actor, params, body }) => ({ body: await deps.users.updateUser(await user(actor, params.userid), body) }),
    }),
  ];
}
