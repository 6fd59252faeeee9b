/**
 * A traveler's preferences (specification: LocalePreferences, TravelPreferences; decisions §2 for
 * security). Language, region and currency codes are checked against ISO data packages (iso-639-1,
 * i18n-iso-countries, currency-codes), not lists of ours.
 */
import ISO6391 from 'iso-639-1';
import { z } from 'zod';
import { minorUnits } from '../money/money.js';
import { Text } from '../validation.js';
import { CountryCode } from '../passengers/schemas.js';

const updatedAt = z.iso.datetime({ offset: true }).nullable().describe('When it was last set; null when never.');

export const LanguageCode = z
  .string()
  .regex(/^[a-z]{2}$/, 'an ISO 639-1 language code in lower case, such as en')
  .refine((code) => ISO6391.validate(code), 'not an ISO 639-1 language code')
  .describe('ISO 639-1 language code, such as en.');

export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 currency code in capitals, such as USD')
  .refine((code) => minorUnits(code) !== undefined, 'not an ISO 4217 currency code')
  .describe('ISO 4217 currency code, such as USD.');

export const UpsertLocalePreferencesRequest = z
  .strictObject({ language_code: LanguageCode, region_code: CountryCode, currency_code: CurrencyCode })
  .meta({ id: 'UpsertLocalePreferencesRequest', examples: [{ language_code: 'en', region_code: 'GB', currency_code: 'GBP' }] });
export type UpsertLocalePreferencesRequest = z.infer<typeof UpsertLocalePreferencesRequest>;

export const LocalePreferences = z
  .object({ user_id: z.uuid(), language_code: z.string(), region_code: z.string(), currency_code: z.string(), updated_at: updatedAt })
  .meta({
    id: 'LocalePreferences',
    description: 'Defaults en, US and USD until the traveler sets them.',
    examples: [{ user_id: '4f9c2d8e-7b1a-4c3e-9a57-2e8d6b0f13a4', language_code: 'en', region_code: 'GB', currency_code: 'GBP', updated_at: '2027-01-09T18:04:51.000Z' }],
  });
export type LocalePreferences = z.infer<typeof LocalePreferences>;

const TravelFields = z.strictObject({
  seat: z.strictObject({
    seat_type: z.enum(['window', 'middle', 'aisle']),
    seating_zone: z.enum(['front', 'middle', 'back']),
    extra_legroom: z.boolean(),
    exit_row: z.boolean(),
  }),
  bag: z.strictObject({ check_bag: z.boolean() }),
  meal: z.strictObject({
    meal_types: z.array(z.enum(['standard', 'vegetarian', 'vegan', 'gluten_free', 'kosher', 'halal', 'diabetic'])).max(7),
    dietary_notes: Text(0, 500),
  }),
  special_assistance: z.array(z.enum(['wheelchair_assistance', 'visual_impairment', 'hearing_impairment', 'service_animal', 'infant_or_child'])).max(5),
});

const TRAVEL_EXAMPLE = {
  seat: { seat_type: 'window', seating_zone: 'front', extra_legroom: true, exit_row: false },
  bag: { check_bag: true },
  meal: { meal_types: ['vegetarian'], dietary_notes: 'No nuts, please.' },
  special_assistance: [],
};

export const UpsertTravelPreferencesRequest = TravelFields.meta({ id: 'UpsertTravelPreferencesRequest', examples: [TRAVEL_EXAMPLE] });
export type UpsertTravelPreferencesRequest = z.infer<typeof UpsertTravelPreferencesRequest>;

export const TravelPreferences = z
  .object({ user_id: z.uuid(), ...TravelFields.shape, updated_at: updatedAt })
  .meta({ id: 'TravelPreferences', examples: [{ user_id: '4f9c2d8e-7b1a-4c3e-9a57-2e8d6b0f13a4', ...TRAVEL_EXAMPLE, updated_at: '2027-01-09T18:06:20.000Z' }] });
export type TravelPreferences = z.infer<typeof TravelPreferences>;

export const UpdateSecurityPreferencesRequest = z
  .strictObject({ sms_sign_in: z.boolean().describe('Sign in with a code by SMS instead of e-mail; needs a verified phone number.') })
  .meta({ id: 'UpdateSecurityPreferencesRequest', examples: [{ sms_sign_in: true }] });

export const SecurityPreferences = z
  .object({ sms_sign_in: z.boolean(), phone_verified: z.boolean(), updated_at: updatedAt })
  .meta({ id: 'SecurityPreferences', examples: [{ sms_sign_in: true, phone_verified: true, updated_at: '2027-01-09T18:07:33.000Z' }] });
export type SecurityPreferences = z.infer<typeof SecurityPreferences>;
