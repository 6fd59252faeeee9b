/**
 * Airline identity recognition (Identity endpoints): an airline (one OAuth client) resolves a traveler it
 * recognized, by pairwise GUID or recognition token, into display claims per the scopes the traveler
 * grants it now, and links loyalty memberships to them.
 *
 * Every refusal is the same 404 (errors.ts), reached by the same single statement: a revocation deletes
 * the pairwise id and the outstanding tokens, so a revoked guid or token is simply one that is not there.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { PairwiseIds } from '../users/pairwise-ids.js';
import { parseOrThrow } from '../validation.js';
import type { StandingConsents } from './contracts.js';
import { UnknownGuidError, UnknownTokenError } from './errors.js';
import type { RecognitionTokens } from './recognition-tokens.js';
import {
  LoyaltyLinkRequest,
  LoyaltyUnlinkRequest,
  ResolveIdentityRequest,
  type IdentityClaims,
  type LoyaltyLinkResult,
  type LoyaltyProgram,
} from './schemas.js';
import { deleteLink, guidOf, isUuid, linksOf, preferencesOf, profileOf, upsertLink, userOfGuid, type PreferencesRow, type ProfileRow } from './store.js';

export interface IdentityServiceDeps {
  db: Knex;
  clock: Clock;
  secrets: SecretBox;
  pairwiseIds: Pick<PairwiseIds, 'guidFor'>;
  recognitionTokens: Pick<RecognitionTokens, 'redeem'>;
  consents: StandingConsents;
}

export class IdentityService {
  constructor(private readonly deps: IdentityServiceDeps) {}

  /** The claims of the traveler behind a guid or a recognition token, for `clientId`'s eyes only. */
  async resolve(clientId: string, input: unknown): Promise<IdentityClaims> {
    const request = parseOrThrow(ResolveIdentityRequest, input);
    if (request.guid !== undefined) {
      const userId = await this.#userOfGuid(clientId, request.guid);
      const scopes = await this.deps.consents.grantedScopes(userId, clientId);
      if (!scopes) throw new UnknownGuidError();
      return this.#claims(userId, clientId, request.guid.toLowerCase(), scopes);
    }
    const redeemed = await this.deps.recognitionTokens.redeem(request.recognition_token as string, clientId);
    if (!redeemed) throw new UnknownTokenError();
    const scopes = await this.deps.consents.grantedScopes(redeemed.userId, clientId);
    if (!scopes) throw new UnknownTokenError();
    // The guid exists since the code exchange; made here only should the frame have minted without one.
    const guid = (await guidOf(this.deps.db, redeemed.userId, clientId)) ?? (await this.deps.pairwiseIds.guidFor(redeemed.userId, clientId));
    return this.#claims(redeemed.userId, clientId, guid, scopes);
  }

  /** Links (or refreshes) a loyalty membership; the same answer for a first link and a repeat. */
  async link(clientId: string, input: unknown): Promise<LoyaltyLinkResult> {
    const request = parseOrThrow(LoyaltyLinkRequest, input);
    const userId = await this.#userOfGuid(clientId, request.guid);
    await this.#ensureConsent(userId, clientId);
    const context = sealContext(userId, clientId, request.program_code);
    await upsertLink(
      this.deps.db,
      {
        user_id: userId,
        client_id: clientId,
        program_code: request.program_code,
        member_number: request.member_number,
        airline_name: request.airline_name,
        airline_iata_code: request.airline_iata_code ?? null,
        loyalty_account_ref_sealed: this.deps.secrets.seal(request.loyalty_account_ref, context),
        verification_method: request.verification_method,
        tier_status: request.tier_status ?? null,
        points: request.points === undefined ? null : String(request.points),
      },
      this.deps.clock.now(),
    );
    return { linked: true, program_code: request.program_code };
  }

  /** Idempotent: unlinking a program that is not linked answers the same. */
  async unlink(clientId: string, input: unknown): Promise<LoyaltyLinkResult> {
    const request = parseOrThrow(LoyaltyUnlinkRequest, input);
    const userId = await this.#userOfGuid(clientId, request.guid);
    await this.#ensureConsent(userId, clientId);
    await deleteLink(this.deps.db, userId, clientId, request.program_code);
    return { linked: false, program_code: request.program_code };
  }

  /** A value not shaped like a UUID cannot be a guid: unknown, without asking the database. */
  async #userOfGuid(clientId: string, guid: string): Promise<string> {
    const userId = isUuid(guid) ? await userOfGuid(this.deps.db, guid, clientId) : undefined;
    if (!userId) throw new UnknownGuidError();
    return userId;
  }

  /** A pairwise id outliving its consent (an expired grant) stands for nobody either. */
  async #ensureConsent(userId: string, clientId: string): Promise<void> {
    if (!(await this.deps.consents.grantedScopes(userId, clientId))) throw new UnknownGuidError();
  }

  async #claims(userId: string, clientId: string, guid: string, scopes: readonly string[]): Promise<IdentityClaims> {
    const granted = new Set(scopes);
    const [profile, preferences, programs] = await Promise.all([
      granted.has('profile.read') ? profileOf(this.deps.db, userId) : undefined,
      granted.has('preferences.read') ? preferencesOf(this.deps.db, userId) : undefined,
      granted.has('loyalty.read') ? linksOf(this.deps.db, userId, clientId) : [],
    ]);
    const claims: IdentityClaims = { guid, status: 'active', granted_scopes: [...scopes] };
    const profileClaims = profile ? profileGroup(profile) : undefined;
    if (profileClaims) claims.profile = profileClaims;
    const preferenceClaims = preferences ? preferencesGroup(preferences) : undefined;
    if (preferenceClaims) claims.preferences = preferenceClaims;
    if (programs.length > 0) claims.loyalty = { programs: programs.map(program) };
    return claims;
  }
}

/** Binds a sealed account reference to its row: copied to another row, it does not open. */
export function sealContext(userId: string, clientId: string, programCode: string): string {
  return `loyalty_links:${userId}:${clientId}:${programCode}`;
}

/** Only what is set; a group with nothing in it is left out (as loyalty without a program is). */
function compact<T extends Record<string, unknown>>(fields: T): Partial<{ [K in keyof T]: NonNullable<T[K]> }> | undefined {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));
  return Object.keys(kept).length > 0 ? (kept as Partial<{ [K in keyof T]: NonNullable<T[K]> }>) : undefined;
}

function profileGroup(row: ProfileRow): IdentityClaims['profile'] {
  return compact({
    first_name: row.first_name,
    middle_name: row.middle_name,
    last_name: row.last_name,
    suffix: row.suffix,
    email: row.email,
    phone_number: row.phone_number,
  });
}

function preferencesGroup(row: PreferencesRow): IdentityClaims['preferences'] {
  const stored = row.travel_updated_at ? row.travel : null;
  const travel = stored
    ? compact({
        seat_type: stored.seat?.seat_type,
        seating_zone: stored.seat?.seating_zone,
        extra_legroom: stored.seat?.extra_legroom,
        exit_row: stored.seat?.exit_row,
        check_bag: stored.bag?.check_bag,
        meal_types: stored.meal?.meal_types,
        dietary_notes: stored.meal?.dietary_notes,
        special_assistance: stored.special_assistance,
      })
    : undefined;
  // Locale is set as a whole; before that the profile API shows defaults, which are no choice of the traveler's.
  const locale =
    row.locale_updated_at && row.language_code && row.region_code && row.currency_code
      ? { language_code: row.language_code, region_code: row.region_code, currency_code: row.currency_code }
      : undefined;
  return compact({ travel, locale }) as IdentityClaims['preferences'];
}

function program(row: Awaited<ReturnType<typeof linksOf>>[number]): LoyaltyProgram {
  return {
    program_code: row.program_code,
    airline_name: row.airline_name,
    member_number: row.member_number,
    // Listed only from this client's own active link: that is what verified means.
    verified: true,
    ...(row.airline_iata_code !== null ? { airline_iata_code: row.airline_iata_code } : {}),
    ...(row.tier_status !== null ? { tier_status: row.tier_status } : {}),
    ...(row.points !== null ? { points: Number(row.points) } : {}),
  };
}
