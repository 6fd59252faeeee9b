import type { Knex } from 'knex';
import { queryPrepared } from '../db/prepared.js';

export interface UserRow {
  id: string;
  email: string;
  phone_number: string | null;
  phone_verified: boolean;
  sms_sign_in: boolean;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  suffix: string | null;
  date_of_birth: string | null;
  gender: 'male' | 'female' | null;
  known_traveler_number: string | null;
  profile_photo_url: string | null;
  is_admin: boolean;
  last_login: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The whole row, as the authorization server reads it for each grant: a prepared statement (see core/db/prepared.ts). */
export async function findUserById(db: Knex, id: string): Promise<UserRow | undefined> {
  const [row] = await queryPrepared<UserRow>(db, 'users_by_id', 'SELECT * FROM users WHERE id = $1', [id]);
  return row;
}

/** A time as Date.toISOString() writes it (UTC, milliseconds cut, not rounded, as pg's Date parsing cuts them). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;

// The traveler as the API shows them (User in schemas.ts: its fields, in its order), as JSON text made by
// PostgreSQL: GET /v1/users/me runs this on every call and sends the text as it comes, so no row is parsed
// (no Dates made only to be written out again) and no object serialized. row_to_json writes what
// JSON.stringify would: no spaces, strings escaped alike, a date as 'YYYY-MM-DD'.
const USER_PROFILE_JSON = `SELECT row_to_json(profile)::text AS profile FROM (
    SELECT id, first_name, middle_name, last_name, suffix, email, phone_number, date_of_birth, gender,
      known_traveler_number, profile_photo_url, ${iso('last_login')}, ${iso('created_at')}, ${iso('updated_at')}
    FROM users WHERE id = $1
  ) profile`;

/** The traveler's profile as JSON text of a User; undefined when there is none. */
export async function findUserProfileJson(db: Knex, id: string): Promise<string | undefined> {
  const [row] = await queryPrepared<{ profile: string }>(db, 'user_profile_json_by_id', USER_PROFILE_JSON, [id]);
  return row?.profile;
}

export async function insertUser(db: Knex, user: { email: string }): Promise<UserRow> {
  const [row] = await db('users').insert(user).returning('*');
  return row as UserRow;
}
