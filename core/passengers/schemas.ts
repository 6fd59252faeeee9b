/**
 * Saved passengers and their identity documents (specification: Passenger, IdentityDocument): one truth
 * for REST, the agent tools and the OpenAPI document. Country codes are checked against ISO 3166-1 data
 * (i18n-iso-countries), not a list of ours: its codes alone, without the country names in some 80
 * languages its main entry point loads at import (half a megabyte for a check that needs none of them).
 */
import countries from 'i18n-iso-countries/index.js';
import { z } from 'zod';
import { CalendarDate, PersonName as Name, Text } from '../validation.js';

const dateTime = z.iso.datetime({ offset: true });

export const CountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code in capitals, such as GB')
  .refine((code) => countries.isValid(code), 'not an ISO 3166-1 country code')
  .describe('ISO 3166-1 alpha-2 country code, such as GB.');

const PASSENGER_FIELDS_EXAMPLE = {
  first_name: 'Amelia',
  middle_name: 'Rose',
  last_name: 'Hart',
  gender: 'female',
  date_of_birth: '1988-04-17',
  email: 'amelia.hart@example.com',
  phone_number: '+447700900123',
  nationality: 'GB',
};

const DOCUMENT_FIELDS_EXAMPLE = {
  document_type: 'passport',
  document_number: '925076473',
  issuing_country_code: 'GB',
  issuing_authority: 'HM Passport Office',
  issued_date: '2021-08-15',
  expires_on: '2031-08-14',
  nationality_on_document: 'GB',
  birth_country: 'GB',
};

export const TravelerType = z.enum(['adult', 'child', 'infant']).describe('IATA bands: infant under 2, child 2 to 11, adult 12 and over.');
export type TravelerType = z.infer<typeof TravelerType>;

const PassengerFields = {
  first_name: Name(2),
  middle_name: Name(1).nullable().optional(),
  last_name: Name(1),
  gender: z.enum(['male', 'female']),
  date_of_birth: CalendarDate,
  email: z.email().max(255).nullable().optional(),
  phone_number: z
    .string()
    .regex(/^\+[1-9]\d{6,18}$/, 'an E.164 number such as +447700900123')
    .max(20)
    .nullable()
    .optional(),
  nationality: CountryCode.nullable().optional(),
  traveler_type: TravelerType.nullable().optional().describe('Optional: when left out it is worked out from the date of birth.'),
  is_default: z.boolean().optional().describe('At most one default passenger: making this one the default unsets the previous one.'),
};

export const CreatePassengerRequest = z
  .strictObject(PassengerFields)
  .meta({ id: 'CreatePassengerRequest', examples: [{ ...PASSENGER_FIELDS_EXAMPLE, is_default: true }] });
export type CreatePassengerRequest = z.infer<typeof CreatePassengerRequest>;

export const UpdatePassengerRequest = z
  .strictObject(PassengerFields)
  .partial()
  .meta({
    id: 'UpdatePassengerRequest',
    description: 'The fields to change; those left out keep their values.',
    examples: [{ phone_number: '+447700900456', nationality: 'IE' }],
  });
export type UpdatePassengerRequest = z.infer<typeof UpdatePassengerRequest>;

export const Passenger = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    first_name: z.string(),
    middle_name: z.string().nullable(),
    last_name: z.string(),
    gender: z.enum(['male', 'female']),
    date_of_birth: z.iso.date(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    nationality: z.string().nullable(),
    traveler_type: TravelerType.describe('As stated, or worked out from the date of birth at today (or at `departure_date` when listing).'),
    is_default: z.boolean(),
    known_traveler_number: z.string().nullable().describe('From the passenger’s primary known-traveler document; null when none.'),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({
    id: 'Passenger',
    description: 'A traveler’s saved passenger.',
    examples: [
      {
        id: 'b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68',
        user_id: '4f9c2d8e-7b1a-4c3e-9a57-2e8d6b0f13a4',
        ...PASSENGER_FIELDS_EXAMPLE,
        traveler_type: 'adult',
        is_default: true,
        known_traveler_number: null,
        created_at: '2026-11-03T14:31:45.000Z',
        updated_at: '2026-11-03T14:31:45.000Z',
      },
    ],
  });
export type Passenger = z.infer<typeof Passenger>;

export const DOCUMENT_TYPES = ['passport', 'visa', 'drivers_license', 'national_id', 'known_traveler_number', 'redress_number', 'tax_id'] as const;
/** Documents that expire must say when. */
export const EXPIRING_DOCUMENT_TYPES: readonly string[] = ['passport', 'visa', 'drivers_license'];

const DocumentFields = {
  document_type: z.enum(DOCUMENT_TYPES),
  document_number: Text(3, 50).describe('Stored encrypted.'),
  issuing_country_code: CountryCode,
  issuing_authority: Text(1, 100).nullable().optional(),
  issued_date: CalendarDate.nullable().optional(),
  expires_on: CalendarDate.nullable().optional().describe('Required for passport, visa and drivers_license.'),
  nationality_on_document: CountryCode.nullable().optional(),
  birth_country: CountryCode.nullable().optional(),
  is_primary: z.boolean().optional().describe('A primary known_traveler_number document gives the passenger its known_traveler_number.'),
};

export const CreateIdentityDocumentRequest = z
  .strictObject(DocumentFields)
  .meta({ id: 'CreateIdentityDocumentRequest', examples: [{ ...DOCUMENT_FIELDS_EXAMPLE, is_primary: true }] });
export type CreateIdentityDocumentRequest = z.infer<typeof CreateIdentityDocumentRequest>;

export const UpdateIdentityDocumentRequest = z
  .strictObject(DocumentFields)
  .partial()
  .meta({
    id: 'UpdateIdentityDocumentRequest',
    description: 'The fields to change; those left out keep their values.',
    examples: [{ document_number: '533380006', issued_date: '2024-05-02', expires_on: '2034-05-01' }],
  });
export type UpdateIdentityDocumentRequest = z.infer<typeof UpdateIdentityDocumentRequest>;

export const IdentityDocument = z
  .object({
    id: z.uuid(),
    user_passenger_id: z.uuid(),
    document_type: z.enum(DOCUMENT_TYPES),
    document_number: z.string(),
    issuing_country_code: z.string(),
    issuing_authority: z.string().nullable(),
    issued_date: z.iso.date().nullable(),
    expires_on: z.iso.date().nullable(),
    nationality_on_document: z.string().nullable(),
    birth_country: z.string().nullable(),
    is_primary: z.boolean(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({
    id: 'IdentityDocument',
    description: 'An identity document of a saved passenger.',
    examples: [
      {
        id: 'e2a9c7f1-3b84-4d5e-8f60-1c7b9d2a4e35',
        user_passenger_id: 'b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68',
        ...DOCUMENT_FIELDS_EXAMPLE,
        is_primary: true,
        created_at: '2026-11-03T14:33:02.000Z',
        updated_at: '2026-11-03T14:33:02.000Z',
      },
    ],
  });
export type IdentityDocument = z.infer<typeof IdentityDocument>;
