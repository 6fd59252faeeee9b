import type { Knex } from 'knex';
import { systemClock, type Clock } from '../clock.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import { UpdateUserRequest, type User } from './schemas.js';
import { findUserProfileJson } from './store.js';

export class UserService {
  readonly #db: Knex;
  readonly #clock: Clock;

  constructor(db: Knex, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
  }

  async getUser(userId: string): Promise<User> {
    return JSON.parse(await this.getUserJson(userId)) as User;
  }

  /** getUser() as JSON text, made by the database: what GET /v1/users/me sends as it is. */
  async getUserJson(userId: string): Promise<string> {
    const user = await findUserProfileJson(this.#db, userId);
    if (user === undefined) throw new NotFoundError('The traveler of this token no longer exists: sign them in again.', 'user_not_found');
    return user;
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
