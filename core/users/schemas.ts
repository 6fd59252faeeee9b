import { z } from 'zod';
import { CalendarDate, PersonName as Name } from '../validation.js';

const dateTime = z.iso.datetime({ offset: true });

const USER_ID = '4f9c2d8e-7b1a-4c3e-9a57-2e8d6b0f13a4';

export const User = z
  .object({
    id: z.uuid(),
    first_name: z.string().nullable(),
    middle_name: z.string().nullable(),
    last_name: z.string().nullable(),
    suffix: z.string().nullable(),
    email: z.email().max(255),
    phone_number: z.string().max(20).nullable().describe('E.164. Null until the traveler adds one (sign-in is by e-mail).'),
    date_of_birth: z.iso.date().nullable(),
    gender: z.enum(['male', 'female']).nullable(),
    known_traveler_number: z.string().nullable(),
    profile_photo_url: z.url().nullable(),
    last_login: dateTime.nullable(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({
    id: 'User',
    description: 'A traveler.',
    examples: [
      {
        id: USER_ID,
        first_name: 'Amelia',
        middle_name: 'Rose',
        last_name: 'Hart',
        suffix: null,
        email: 'amelia.hart@example.com',
        phone_number: '+447700900123',
        date_of_birth: '1988-04-17',
        gender: 'female',
        known_traveler_number: null,
        profile_photo_url: `https://api.example.com/v1/users/${USER_ID}/profile-photo`,
        last_login: '2027-02-18T08:57:12.000Z',
        created_at: '2026-11-03T14:22:09.000Z',
        updated_at: '2027-02-18T08:57:12.000Z',
      },
    ],
  });
export type User = z.infer<typeof User>;

export const UpdateUserRequest = z
  .strictObject({
    first_name: Name(2).nullable().optional(),
    middle_name: Name(1).nullable().optional(),
    last_name: Name(1).nullable().optional(),
    suffix: z.string().regex(/^[A-Za-z]{1,10}$/, '1 to 10 letters, such as Jr or III').nullable().optional(),
    date_of_birth: CalendarDate.nullable().optional(),
    gender: z.enum(['male', 'female']).nullable().optional(),
    known_traveler_number: z.string().regex(/^[A-Za-z0-9]{5,25}$/, '5 to 25 letters and digits').nullable().optional(),
    profile_photo_url: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    // Accepted and ignored: they change only through the contact change, which proves the new one.
    email: z.unknown().optional().describe('Ignored: change it with the contact change.'),
    phone_number: z.unknown().optional().describe('Ignored: change it with the contact change.'),
  })
  .meta({
    id: 'UpdateUserRequest',
    description: 'The fields to change; those left out keep their values. `email` and `phone_number` are ignored.',
    examples: [{ first_name: 'Amelia', middle_name: 'Rose', last_name: 'Hart', date_of_birth: '1988-04-17', gender: 'female' }],
  });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;
