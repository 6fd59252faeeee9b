/**
 * The identity API's contracts (specification: Identity claim set, Loyalty program entry, Loyalty link
 * request; Identity endpoints): what an airline's backend sends to resolve a traveler it recognized, and
 * to link a loyalty membership to them, and what it gets back.
 *
 * A guid or token that is not even shaped like one is not a validation error but the same 404 as any
 * unknown one (core/identity/errors.ts): the bounds here only keep absurd input away from the database.
 */
import { z } from 'zod';

const GUID_EXAMPLE = '6f1c2a9e-3b7d-4e58-a0c4-9d2e7b13f860';
const TOKEN_EXAMPLE = 'q7Jx0bV3mZ2kTn8sWc1yRg';

/** Longer than any guid (36) or token (22) of ours, short enough that nothing absurd reaches a query. */
const OPAQUE_MAX = 200;

/** No control characters (NUL and line breaks included) and no markup: this text is shown on airlines' pages. */
const PLAIN_TEXT = /^[^\p{Cc}<>]+$/u;

function plainText(min: number, max: number) {
  return z.string().min(min).max(max).regex(PLAIN_TEXT, 'plain text: no control characters, < or >');
}

const Guid = z
  .string()
  .max(OPAQUE_MAX)
  .describe('The pairwise GUID of the traveler for your client: `svc_guid` of the code exchange, or `guid` of an earlier resolve.')
  .meta({ examples: [GUID_EXAMPLE] });

export const ResolveIdentityRequest = z
  .strictObject({
    guid: Guid.optional(),
    recognition_token: z
      .string()
      .max(OPAQUE_MAX)
      .optional()
      .describe('A recognition token from the recognition component’s `onToken`: single use, 120 seconds, bound to your client.')
      .meta({ examples: [TOKEN_EXAMPLE] }),
  })
  .superRefine((body, ctx) => {
    if (body.guid !== undefined && body.recognition_token !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['recognition_token'], message: 'cannot be sent together with guid: send exactly one of guid or recognition_token' });
    } else if (body.guid === undefined && body.recognition_token === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'must carry exactly one of guid (a stored pairwise GUID) or recognition_token (from the recognition component)' });
    }
  })
  .meta({
    id: 'ResolveIdentityRequest',
    description: 'Exactly one of `guid` or `recognition_token`.',
    oneOf: [{ required: ['guid'] }, { required: ['recognition_token'] }],
    examples: [{ recognition_token: TOKEN_EXAMPLE }, { guid: GUID_EXAMPLE }],
  });
export type ResolveIdentityRequest = z.infer<typeof ResolveIdentityRequest>;

const PROFILE_EXAMPLE = { first_name: 'Amelia', last_name: 'Hart', email: 'amelia.hart@example.com', phone_number: '+447700900123' };
const TRAVEL_EXAMPLE = {
  seat_type: 'window',
  seating_zone: 'front',
  extra_legroom: true,
  exit_row: false,
  check_bag: true,
  meal_types: ['vegetarian'],
  dietary_notes: 'No nuts, please.',
  special_assistance: [],
};
const LOCALE_EXAMPLE = { language_code: 'en', region_code: 'GB', currency_code: 'GBP' };
const PROGRAM_EXAMPLE = { program_code: 'SKYMILES', airline_name: 'Demo Air', member_number: '9012345678', verified: true, airline_iata_code: 'DA', tier_status: 'Gold', points: 48250 };

const SEAT_TYPES = ['window', 'middle', 'aisle'] as const;
const SEATING_ZONES = ['front', 'middle', 'back'] as const;
const MEAL_TYPES = ['standard', 'vegetarian', 'vegan', 'gluten_free', 'kosher', 'halal', 'diabetic'] as const;
const ASSISTANCE = ['wheelchair_assistance', 'visual_impairment', 'hearing_impairment', 'service_animal', 'infant_or_child'] as const;

export const IdentityProfile = z
  .object({
    first_name: z.string().optional(),
    middle_name: z.string().optional(),
    last_name: z.string().optional(),
    suffix: z.string().optional(),
    email: z.email().optional(),
    phone_number: z.string().optional().describe('E.164.'),
  })
  .describe('With `profile.read`. A field the traveler never set is left out.')
  .meta({ id: 'IdentityProfile', examples: [PROFILE_EXAMPLE] });

export const IdentityTravelPreferences = z
  .object({
    seat_type: z.enum(SEAT_TYPES).optional(),
    seating_zone: z.enum(SEATING_ZONES).optional(),
    extra_legroom: z.boolean().optional(),
    exit_row: z.boolean().optional(),
    check_bag: z.boolean().optional(),
    meal_types: z.array(z.enum(MEAL_TYPES)).optional(),
    dietary_notes: z.string().optional(),
    special_assistance: z.array(z.enum(ASSISTANCE)).optional(),
  })
  .describe('Seat, bag, meal and assistance preferences, flattened; left out until the traveler sets them.')
  .meta({ id: 'IdentityTravelPreferences', examples: [TRAVEL_EXAMPLE] });

export const IdentityLocalePreferences = z
  .object({
    language_code: z.string().describe('ISO 639-1.'),
    region_code: z.string().describe('ISO 3166-1 alpha-2.'),
    currency_code: z.string().describe('ISO 4217.'),
  })
  .describe('Left out until the traveler sets it (the defaults of the profile API are not disclosed as choices).')
  .meta({ id: 'IdentityLocalePreferences', examples: [LOCALE_EXAMPLE] });

export const IdentityPreferences = z
  .object({ travel: IdentityTravelPreferences.optional(), locale: IdentityLocalePreferences.optional() })
  .describe('With `preferences.read`, when the traveler has set travel or locale preferences.')
  .meta({ id: 'IdentityPreferences', examples: [{ travel: TRAVEL_EXAMPLE, locale: LOCALE_EXAMPLE }] });

export const LoyaltyProgram = z
  .object({
    program_code: z.string(),
    airline_name: z.string(),
    member_number: z.string(),
    verified: z.boolean().describe('True while your own active link for this program exists (every program listed is one).'),
    airline_iata_code: z.string().optional(),
    tier_status: z.string().optional(),
    points: z.number().optional(),
  })
  .describe('A loyalty membership as your last link call sent it (never the account reference). Optional fields you did not send are left out.')
  .meta({ id: 'LoyaltyProgram', examples: [PROGRAM_EXAMPLE] });
export type LoyaltyProgram = z.infer<typeof LoyaltyProgram>;

export const IdentityClaims = z
  .object({
    guid: z.uuid().describe('The pairwise GUID of this traveler for your client; store it to resolve again without a token. Never a user id.'),
    status: z.literal('active'),
    granted_scopes: z
      .array(z.string())
      .describe('The scopes the traveler grants your client right now (they can turn each off on their Connected apps page): the groups below follow them.'),
    profile: IdentityProfile.optional(),
    preferences: IdentityPreferences.optional(),
    loyalty: z
      .object({ programs: z.array(LoyaltyProgram) })
      .optional()
      .describe('With `loyalty.read`, when you have linked at least one program to this traveler.'),
  })
  .meta({
    id: 'IdentityClaims',
    description:
      'Display data about the traveler, per the scopes they grant you now. Cache it for minutes at most and do not replicate it as a standing profile; never use it as authentication for account changes. A group with nothing in it is left out.',
    examples: [
      {
        guid: GUID_EXAMPLE,
        status: 'active',
        granted_scopes: ['profile.read', 'preferences.read', 'loyalty.read'],
        profile: PROFILE_EXAMPLE,
        preferences: { travel: TRAVEL_EXAMPLE, locale: LOCALE_EXAMPLE },
        loyalty: { programs: [PROGRAM_EXAMPLE] },
      },
    ],
  });
export type IdentityClaims = z.infer<typeof IdentityClaims>;

const ProgramCode = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
  .describe('Your code for the loyalty program; one link per traveler and program.')
  .meta({ examples: ['SKYMILES'] });

/** Whole or with at most two decimals, as numeric(20,2) keeps it; the bound keeps it exact as a JSON number. */
const Points = z
  .number()
  .min(0)
  .max(1e12)
  .refine((points) => /^\d+(\.\d{1,2})?$/.test(String(points)), 'at most 2 decimals')
  .describe('The member’s points balance, 0 or more, at most 2 decimals.');

export const LoyaltyLinkRequest = z
  .strictObject({
    guid: Guid,
    program_code: ProgramCode,
    loyalty_account_ref: z
      .string()
      .min(1)
      .max(256)
      .regex(/^\P{Cc}+$/u, 'no control characters')
      .describe('Your reference of the member’s account. Stored encrypted and never returned, by any route.'),
    member_number: plainText(1, 64).describe('The membership number, shown to the traveler.'),
    airline_name: plainText(1, 100).describe('The name the program is shown under.'),
    airline_iata_code: z.string().regex(/^[A-Z0-9]{2}$/, 'two capital letters or digits, such as DA').optional(),
    verification_method: z
      .enum(['member_otp', 'loyalty_session', 'enrollment'])
      .describe('How you established that the traveler owns the membership; stored as sent.'),
    tier_status: plainText(1, 50).optional(),
    points: Points.optional(),
  })
  .meta({
    id: 'LoyaltyLinkRequest',
    description: 'A repeat for the same guid and program replaces every field with what it sends (optional fields left out are cleared).',
    examples: [
      {
        guid: GUID_EXAMPLE,
        program_code: 'SKYMILES',
        loyalty_account_ref: 'acct_7Hq2LmX9',
        member_number: '9012345678',
        airline_name: 'Demo Air',
        airline_iata_code: 'DA',
        verification_method: 'member_otp',
        tier_status: 'Gold',
        points: 48250,
      },
    ],
  });
export type LoyaltyLinkRequest = z.infer<typeof LoyaltyLinkRequest>;

export const LoyaltyUnlinkRequest = z
  .strictObject({ guid: Guid, program_code: ProgramCode })
  .meta({ id: 'LoyaltyUnlinkRequest', examples: [{ guid: GUID_EXAMPLE, program_code: 'SKYMILES' }] });
export type LoyaltyUnlinkRequest = z.infer<typeof LoyaltyUnlinkRequest>;

export const LoyaltyLinkResult = z
  .object({ linked: z.boolean(), program_code: z.string() })
  .meta({ id: 'LoyaltyLinkResult', examples: [{ linked: true, program_code: 'SKYMILES' }] });
export type LoyaltyLinkResult = z.infer<typeof LoyaltyLinkResult>;
