import { z } from 'zod';
import { zText } from './text';

export const ZUserProfile = z.object({
  full_name: zText().nullable(),
  username: zText(),
  email: zText(),
  phone_number: zText().nullable(),
  bio: zText().nullable(),
  /** Path on the gateway (prefix it with the API base URL), or null when no picture is set. */
  profile_picture_url: zText().nullable(),
  created_at: z.iso.datetime(),
});
export type TUserProfile = z.infer<typeof ZUserProfile>;

/** Empty form fields clear the value. */
const optionalText = (max: number, label: string) =>
  zText()
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .transform((value) => (value === '' ? null : value))
    .optional();

/**
 * Text fields of `PUT /users/me` (multipart). Anything else in the form — email, username,
 * id, dates — is dropped, so it can never be changed through this call.
 */
export const ZUpdateProfileRequest = z.object({
  full_name: optionalText(100, 'Full name'),
  phone_number: optionalText(32, 'Phone number').refine(
    (value) => value == null || /^[0-9+()\-.\s]+$/.test(value),
    { error: 'Phone number may contain only digits, spaces and + ( ) - .' },
  ),
  bio: optionalText(1000, 'Bio'),
});
export type TUpdateProfileRequest = z.infer<typeof ZUpdateProfileRequest>;

export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_PICTURE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
] as const;
