/**
 * What the hosted checkout's page sends its JSON API (decisions §12): the traveler's e-mail and code, the
 * passengers, seats, bags and card they chose, and the total the review step showed. Not part of the
 * public API (the page is ours): the page is the only client, and these shapes change with it.
 */
import { z } from 'zod';
import { ExpectedTotal, SeatSelectionInput, ServiceSelection } from '../bookings/schemas.js';
import { CountryCode } from '../passengers/schemas.js';
import { CalendarDate, PersonName } from '../validation.js';

export const SignInEmail = z.strictObject({ email: z.email('an e-mail address, like name@example.com').max(255) });
export const SignInCode = z.strictObject({ code: z.string().trim().regex(/^\d{6,8}$/, 'the 6 or 8 digits we sent') });

export const Passport = z.strictObject({
  number: z.string().trim().regex(/^[A-Za-z0-9]{3,50}$/, '3 to 50 letters and digits, as printed in the passport'),
  issuing_country_code: CountryCode,
  expires_on: CalendarDate,
});
export type Passport = z.infer<typeof Passport>;

const NewPassengerFields = {
  first_name: PersonName(1),
  last_name: PersonName(1),
  born_on: CalendarDate,
  gender: z.enum(['male', 'female']),
};

/** A new passenger the traveler asks us to keep (with their passport, where given). */
export const SavePassenger = z.strictObject({ ...NewPassengerFields, passport: Passport.optional() });
export type SavePassenger = z.infer<typeof SavePassenger>;

/** Who travels as one passenger of the offer: a saved passenger, or one entered now. */
export const TravelingPassenger = z
  .strictObject({
    provider_passenger_id: z.string().min(1).max(100),
    saved_passenger_id: z.uuid().optional(),
    first_name: NewPassengerFields.first_name.optional(),
    last_name: NewPassengerFields.last_name.optional(),
    born_on: NewPassengerFields.born_on.optional(),
    gender: NewPassengerFields.gender.optional(),
    /** A passport entered now (for a saved passenger too, when theirs is missing or expires too soon). */
    passport: Passport.optional(),
  })
  .superRefine((passenger, context) => {
    if (passenger.saved_passenger_id) return;
    for (const field of ['first_name', 'last_name', 'born_on', 'gender'] as const) {
      if (passenger[field] === undefined) context.addIssue({ code: 'custom', path: [field], message: `${field.replace('_', ' ')} is required for a passenger who is not saved` });
    }
  });
export type TravelingPassenger = z.infer<typeof TravelingPassenger>;

/** What the traveler chose, from the passengers to the card: the review prices it, the pay books it. */
export const CheckoutChoices = z.strictObject({
  passengers: z.array(TravelingPassenger).min(1).max(9),
  phone_number: z.string().regex(/^\+[1-9]\d{6,18}$/, 'a phone number with its country code, such as +447700900123'),
  seats: z.array(SeatSelectionInput.pick({ segment_id: true, passenger_id: true, seat_number: true })).max(40).default([]),
  bags: z.array(ServiceSelection).max(20).default([]),
  payment_method_id: z.uuid().optional(),
});
export type CheckoutChoices = z.infer<typeof CheckoutChoices>;

export const CheckoutPayment = CheckoutChoices.extend({
  payment_method_id: z.uuid(),
  expected_total: ExpectedTotal,
});
export type CheckoutPayment = z.infer<typeof CheckoutPayment>;

export const SaveCard = z.strictObject({ vault_token: z.uuid() });

export const Abandon = z.strictObject({ reason: z.literal('search_again') });
