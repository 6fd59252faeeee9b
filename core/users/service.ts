import type { Knex } from 'knex';
import { NotFoundError } from '../errors.js';
import type { User } from './schemas.js';
import { findUserById, type UserRow } from './store.js';

export class UserService {
  readonly #db: Knex;

  constructor(db: Knex) {
    this.#db = db;
  }

  async getUser(userId: string): Promise<User> {
    const row = await findUserById(this.#db, userId);
    if (!row) throw new NotFoundError('The traveler of this token no longer exists: sign them in again.', 'user_not_found');
    return toUser(row);
  }
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    first_name: row.first_name,
    middle_name: row.middle_name,
    last_name: row.last_name,
    suffix: row.suffix,
    email: row.email,
    phone_number: row.phone_number,
    date_of_birth: row.date_of_birth,
    gender: row.gender,
    known_traveler_number: row.known_traveler_number,
    profile_photo_url: row.profile_photo_url,
    last_login: row.last_login?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
