/**
 * The identity module's queries: rows in, rows out. Loyalty links are keyed by traveler and client (not
 * by the pairwise GUID), so that they survive a disconnect and reconnect.
 */
import type { Knex } from 'knex';
import type { UserRow } from '../users/store.js';

/** A syntactically valid UUID; anything else cannot be a guid of ours. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The traveler a guid stands for, for this client only: one indexed SELECT (guid is unique). */
export async function userOfGuid(db: Knex, guid: string, clientId: string): Promise<string | undefined> {
  const row: { user_id: string } | undefined = await db('pairwise_ids').where({ guid: guid.toLowerCase(), client_id: clientId }).first('user_id');
  return row?.user_id;
}

/** The traveler's existing guid for this client: a read, where PairwiseIds.guidFor would write first. */
export async function guidOf(db: Knex, userId: string, clientId: string): Promise<string | undefined> {
  const row: { guid: string } | undefined = await db('pairwise_ids').where({ user_id: userId, client_id: clientId }).first('guid');
  return row?.guid;
}

export type ProfileRow = Pick<UserRow, 'first_name' | 'middle_name' | 'last_name' | 'suffix' | 'email' | 'phone_number'>;

export async function profileOf(db: Knex, userId: string): Promise<ProfileRow | undefined> {
  return db('users').where({ id: userId }).first('first_name', 'middle_name', 'last_name', 'suffix', 'email', 'phone_number');
}

export interface StoredTravel {
  seat?: { seat_type?: string; seating_zone?: string; extra_legroom?: boolean; exit_row?: boolean };
  bag?: { check_bag?: boolean };
  meal?: { meal_types?: string[]; dietary_notes?: string };
  special_assistance?: string[];
}

export interface PreferencesRow {
  language_code: string | null;
  region_code: string | null;
  currency_code: string | null;
  locale_updated_at: Date | null;
  travel: StoredTravel | null;
  travel_updated_at: Date | null;
}

export async function preferencesOf(db: Knex, userId: string): Promise<PreferencesRow | undefined> {
  return db('user_preferences')
    .where({ user_id: userId })
    .first('language_code', 'region_code', 'currency_code', 'locale_updated_at', 'travel', 'travel_updated_at');
}

export interface LoyaltyLinkRow {
  program_code: string;
  member_number: string;
  airline_name: string;
  airline_iata_code: string | null;
  tier_status: string | null;
  /** numeric(20,2): the driver hands it over as a decimal string. */
  points: string | null;
}

export async function linksOf(db: Knex, userId: string, clientId: string): Promise<LoyaltyLinkRow[]> {
  return db('loyalty_links')
    .where({ user_id: userId, client_id: clientId })
    .orderBy('program_code')
    .select('program_code', 'member_number', 'airline_name', 'airline_iata_code', 'tier_status', 'points');
}

export interface LoyaltyLinkWrite {
  user_id: string;
  client_id: string;
  program_code: string;
  member_number: string;
  airline_name: string;
  airline_iata_code: string | null;
  loyalty_account_ref_sealed: string;
  verification_method: string;
  tier_status: string | null;
  points: string | null;
}

/** Insert, or replace every field of the existing link; `linked_at` stays the first link's. */
export async function upsertLink(db: Knex, link: LoyaltyLinkWrite, now: Date): Promise<void> {
  const replaced: (keyof LoyaltyLinkWrite | 'updated_at')[] = [
    'member_number',
    'airline_name',
    'airline_iata_code',
    'loyalty_account_ref_sealed',
    'verification_method',
    'tier_status',
    'points',
    'updated_at',
  ];
  await db('loyalty_links')
    .insert({ ...link, linked_at: now, updated_at: now })
    .onConflict(['user_id', 'client_id', 'program_code'])
    .merge(replaced);
}

export async function deleteLink(db: Knex, userId: string, clientId: string, programCode: string): Promise<void> {
  await db('loyalty_links').where({ user_id: userId, client_id: clientId, program_code: programCode }).delete();
}
