/**
 * A traveler's locale, travel and security preferences. Each set replaces that part whole (the upsert
 * requests carry every field); a traveler's row is made by the first set.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import {
  UpdateSecurityPreferencesRequest,
  UpsertLocalePreferencesRequest,
  UpsertTravelPreferencesRequest,
  type LocalePreferences,
  type SecurityPreferences,
  type TravelPreferences,
} from './schemas.js';

const DEFAULT_LOCALE = { language_code: 'en', region_code: 'US', currency_code: 'USD' };

interface PreferencesRow {
  user_id: string;
  language_code: string | null;
  region_code: string | null;
  currency_code: string | null;
  locale_updated_at: Date | null;
  travel: Omit<TravelPreferences, 'user_id' | 'updated_at'> | null;
  travel_updated_at: Date | null;
  security_updated_at: Date | null;
}

export class PreferencesService {
  constructor(private readonly deps: { db: Knex; clock: Clock }) {}

  async locale(userId: string): Promise<LocalePreferences> {
    const row = await this.#row(userId);
    if (!row?.locale_updated_at) return { user_id: userId, ...DEFAULT_LOCALE, updated_at: null };
    return {
      user_id: userId,
      language_code: row.language_code as string,
      region_code: row.region_code as string,
      currency_code: row.currency_code as string,
      updated_at: row.locale_updated_at.toISOString(),
    };
  }

  async setLocale(userId: string, input: unknown): Promise<LocalePreferences> {
    const locale = parseOrThrow(UpsertLocalePreferencesRequest, input);
    await this.#upsert(userId, { ...locale, locale_updated_at: this.deps.clock.now() });
    return this.locale(userId);
  }

  /** 404 until the traveler sets them: there are no sensible defaults for seats or meals. */
  async travel(userId: string): Promise<TravelPreferences> {
    const row = await this.#row(userId);
    if (!row?.travel || !row.travel_updated_at) {
      throw new NotFoundError('The traveler has not set travel preferences yet: set them with PUT .../preferences/travel.', 'preferences_not_set');
    }
    return { user_id: userId, ...row.travel, updated_at: row.travel_updated_at.toISOString() };
  }

  async setTravel(userId: string, input: unknown): Promise<TravelPreferences> {
    const travel = parseOrThrow(UpsertTravelPreferencesRequest, input);
    await this.#upsert(userId, { travel: JSON.stringify(travel), travel_updated_at: this.deps.clock.now() });
    return this.travel(userId);
  }

  async security(userId: string): Promise<SecurityPreferences> {
    const user: { sms_sign_in: boolean; phone_verified: boolean } = await this.deps.db('users').where({ id: userId }).first('sms_sign_in', 'phone_verified');
    const row = await this.#row(userId);
    return { sms_sign_in: user.sms_sign_in, phone_verified: user.phone_verified, updated_at: row?.security_updated_at?.toISOString() ?? null };
  }

  /** SMS sign-in needs a verified phone: the code must reach the traveler. */
  async setSecurity(userId: string, input: unknown): Promise<SecurityPreferences> {
    const { sms_sign_in: sms } = parseOrThrow(UpdateSecurityPreferencesRequest, input);
    await this.deps.db.transaction(async (trx) => {
      const user: { phone_verified: boolean } = await trx('users').where({ id: userId }).forUpdate().first('phone_verified');
      if (sms && !user.phone_verified) {
        throw new ValidationError([
          { field: 'sms_sign_in', rule: 'verified_phone', message: 'SMS sign-in needs a verified phone number: add one through the contact change first' },
        ]);
      }
      await trx('users').where({ id: userId }).update({ sms_sign_in: sms });
      await this.#upsert(userId, { security_updated_at: this.deps.clock.now() }, trx);
    });
    return this.security(userId);
  }

  async #row(userId: string): Promise<PreferencesRow | undefined> {
    return this.deps.db('user_preferences').where({ user_id: userId }).first();
  }

  async #upsert(userId: string, columns: Record<string, unknown>, db: Knex = this.deps.db): Promise<void> {
    await db('user_preferences')
      .insert({ user_id: userId, ...columns })
      .onConflict('user_id')
      .merge(Object.keys(columns));
  }
}
