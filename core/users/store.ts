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

/** Read for every request with a token: a prepared statement (see core/db/prepared.ts). */
export async function findUserById(db: Knex, id: string): Promise<UserRow | undefined> {
  const [row] = await queryPrepared<UserRow>(db, 'users_by_id', 'SELECT * FROM users WHERE id = $1', [id]);
  return row;
}

export async function insertUser(db: Knex, user: { email: string }): Promise<UserRow> {
  const [row] = await db('users').insert(user).returning('*');
  return row as UserRow;
}
