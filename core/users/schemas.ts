import { z } from 'zod';

const dateTime = z.iso.datetime({ offset: true });

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
  .meta({ id: 'User', description: 'A traveler.' });
export type User = z.infer<typeof User>;
