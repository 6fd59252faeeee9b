import type { UserService } from '../../core/users/service.js';
import { User } from '../../core/users/schemas.js';
import { defineRoute, type Route } from '../route-table.js';

export function userRoutes(deps: { users: UserService }): Route[] {
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
  ];
}
