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

const userNotFound = { code: 'user_not_found', message: 'The traveler of this token no longer exists: sign them in again.' };

export function preferenceRoutes(deps: { preferences: PreferencesService; users: UserService }): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  // Every route names a traveler in its path (400 when it is neither `me` nor a UUID) and can miss (404).
  const common = { tags: ['Preferences'], auth: 'api_key_and_bearer' as const, params: UserPath, errors: [400, 404] };
  const kinds = [
    {
      kind: 'locale',
      name: 'Locale',
      read: LocalePreferences,
      write: UpsertLocalePreferencesRequest,
      get: 'locale',
      set: 'setLocale',
      reads: 'Language (ISO 639-1), region (ISO 3166-1) and currency (ISO 4217). Until the traveler sets them: `en`, `US`, `USD`, with `updated_at` null.',
      writes: 'Sets all three at once; each is checked against its ISO list.',
      missing: userNotFound,
    },
    {
      kind: 'travel',
      name: 'Travel',
      read: TravelPreferences,
      write: UpsertTravelPreferencesRequest,
      get: 'travel',
      set: 'setTravel',
      reads: 'Seat, bag, meal and special assistance, as the traveler set them; 404 `preferences_not_set` until they do.',
      writes: 'Replaces the travel preferences as a whole.',
      missing: {
        code: 'preferences_not_set',
        message: 'The traveler has not set travel preferences yet: set them with PUT .../preferences/travel.',
      },
    },
    {
      kind: 'security',
      name: 'Security',
      read: SecurityPreferences,
      write: UpdateSecurityPreferencesRequest,
      get: 'security',
      set: 'setSecurity',
      reads: 'Whether the traveler signs in with a code by SMS instead of e-mail, and whether their phone is verified.',
      writes: 'Turns SMS sign-in on or off; on needs a verified phone number (400 otherwise).',
      missing: userNotFound,
    },
  ] as const;
  return kinds.flatMap((spec) => [
    defineRoute({
      ...common,
      method: 'GET',
      path: `/v1/users/{userid}/preferences/${spec.kind}`,
      operationId: `get${spec.name}Preferences`,
      summary: `The traveler’s ${spec.kind} preferences`,
      description: spec.reads,
      scope: 'preferences.read',
      responses: { 200: { description: `The ${spec.kind} preferences.`, schema: spec.read } },
      errorExamples: { 404: spec.missing },
      handler: async ({ actor, params }) => ({ body: await deps.preferences[spec.get](await user(actor, params.userid)) }),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: `/v1/users/{userid}/preferences/${spec.kind}`,
      operationId: `set${spec.name}Preferences`,
      summary: `Set the traveler’s ${spec.kind} preferences`,
      description: spec.writes,
      scope: 'preferences.write',
      errorExamples: { 404: userNotFound },
      body: spec.write,
      responses: { 200: { description: `The ${spec.kind} preferences as they are now.`, schema: spec.read } },
      handler: async ({ actor, params, body }) => ({ body: await deps.preferences[spec.set](await user(actor, params.userid), body) }),
    }),
  ]);
}
