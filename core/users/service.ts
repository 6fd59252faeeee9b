import type { Knex } from 'knex';
import { systemClock, type Clock } from '../clock.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import { UpdateUserRequest, type User } from './schemas.js';
import { findUserById, type UserRow } from './store.js';

export class UserService {
  readonly #db: Knex;
  readonly #clock: Clock;

  constructor(db: Knex, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
  }

  async getUser(userId: string): Promise<User> {
    const row = await findUserById(this.#db, userId);
    if (!row) throw new NotFoundError('The traveler of this token no longer exists: sign them in again.', 'user_not_found');
    return toUser(row);
  }

  /** Changes the profile's fields that are sent; `email` and `phone_number` are stripped, never changed here. */
  async updateUser(userId: string, input: unknown): Promise<User> {
    const { email: _email, phone_number: _phone, ...fields } = parseOrThrow(UpdateUserRequest, input);
    const now = this.#clock.now();
    // Not after today anywhere on earth (UTC+14 is a day ahead of UTC at most).
    if (fields.date_of_birth && fields.date_of_birth > new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10)) {
      throw new ValidationError([{ field: 'date_of_birth', rule: 'not_in_future', message: 'a date of birth cannot be in the future' }]);
    }
    if (Object.keys(fields).length > 0) await this.#db('users').where({ id: userId }).update({ ...fields, updated_at: now });
    return this.getUser(userId);
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
