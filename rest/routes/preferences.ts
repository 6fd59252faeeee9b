/**
 * A traveler's preferences (decisions §2): locale (defaults until set), travel (404 until set) and
 * security (SMS sign-in). `preferences.read` to read, `preferences.write` to set; `{userid}` is `me` or
 * the traveler's own id.
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import {
  LocalePreferences,
  SecurityPreferences,
  TravelPreferences,
  UpdateSecurityPreferencesRequest,
  UpsertLocalePreferencesRequest,
  UpsertTravelPreferencesRequest,
} from '../../core/preferences/schemas.js';
import type { PreferencesService } from '../../core/preferences/service.js';
import { resolveUserId, UserIdParam } from '../../core/users/access.js';
import type { UserService } from '../../core/users/service.js';
import { defineRoute, type Route } from '../route-table.js';

const UserPath = z.object({ userid: UserIdParam });

export function preferenceRoutes(deps: { preferences: PreferencesService; users: UserService }): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  const common = { tags: ['Preferences'], auth: 'api_key_and_bearer' as const, params: UserPath };
  const kinds = [
    { kind: 'locale', name: 'Locale', read: LocalePreferences, write: UpsertLocalePreferencesRequest, get: 'locale', set: 'setLocale', errors: [] },
    { kind: 'travel', name: 'Travel', read: TravelPreferences, write: UpsertTravelPreferencesRequest, get: 'travel', set: 'setTravel', errors: [404] },
    { kind: 'security', name: 'Security', read: SecurityPreferences, write: UpdateSecurityPreferencesRequest, get: 'security', set: 'setSecurity', errors: [] },
  ] as const;
  return kinds.flatMap((spec) => [
    defineRoute({
      ...common,
      method: 'GET',
      path: `/v1/users/{userid}/preferences/${spec.kind}`,
      operationId: `get${spec.name}Preferences`,
      summary: `The traveler’s ${spec.kind} preferences`,
      scope: 'preferences.read',
      responses: { 200: { description: `The ${spec.kind} preferences.`, schema: spec.read } },
      errors: [...spec.errors],
      handler: async ({ actor, params }) => ({ body: await deps.preferences[spec.get](await user(actor, params.userid)) }),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: `/v1/users/{userid}/preferences/${spec.kind}`,
      operationId: `set${spec.name}Preferences`,
      summary: `Set the traveler’s ${spec.kind} preferences`,
      scope: 'preferences.write',
      body: spec.write,
      responses: { 200: { description: `The ${spec.kind} preferences as they are now.`, schema: spec.read } },
      handler: async ({ actor, params, body }) => ({ body: await deps.preferences[spec.set](await user(actor, params.userid), body) }),
    }),
  ]);
}
