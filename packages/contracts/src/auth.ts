import { z } from 'zod';
import { zText } from './text';

/** E-mails are compared and stored trimmed and lower-cased. */
export const ZEmail = zText({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address.' }).max(254));

export const PASSWORD_MIN_LENGTH = 8;
/** argon2 hashes anything, but an unbounded input is a cheap way to burn server CPU. */
export const PASSWORD_MAX_LENGTH = 128;

export const ZPassword = zText({ error: 'Password is required.' })
  .min(PASSWORD_MIN_LENGTH, {
    error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  })
  .max(PASSWORD_MAX_LENGTH, {
    error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  });

export const ZUsername = zText({ error: 'Username is required.' })
  .trim()
  .min(3, { error: 'Username must be at least 3 characters.' })
  .max(32, { error: 'Username must be at most 32 characters.' })
  .regex(/^[A-Za-z0-9_.-]+$/, {
    error: 'Username may contain only letters, digits, dots, dashes and underscores.',
  });

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';

export const ZSignupRequest = z.object({
  username: ZUsername,
  email: ZEmail,
  password: ZPassword,
  confirm_password: zText({ error: 'Confirm password is required.' }),
});
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZLoginRequest = z.object({
  email: ZEmail,
  // No length rule on login: a wrong password must get the same answer whatever its shape.
  password: zText({ error: 'Password is required.' }).min(1, { error: 'Password is required.' }),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZPublicUser = z.object({
  id: z.uuid(),
  username: zText(),
  email: zText(),
});
export type TPublicUser = z.infer<typeof ZPublicUser>;

export const ZLoginResponse = z.object({
  access_token: zText(),
  token_type: z.literal('bearer'),
  user: ZPublicUser,
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZSignupResponse = z.object({
  message: zText(),
  user: ZPublicUser,
});
export type TSignupResponse = z.infer<typeof ZSignupResponse>;

export const ZForgotPasswordQuery = z.object({ email: ZEmail });
export type TForgotPasswordQuery = z.infer<typeof ZForgotPasswordQuery>;

export const ZResetPasswordRequest = z.object({
  token: zText({ error: 'Token is required.' }).trim().max(256),
  new_password: ZPassword,
  confirm_password: zText({ error: 'Confirm password is required.' }),
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** Claims of the access token. `sub` is the user id. */
export const ZJwtClaims = z.object({
  sub: z.uuid(),
  iat: z.number().int(),
  /** When the token was issued, in milliseconds: `iat` alone cannot order events within a second. */
  iat_ms: z.number().int().optional(),
  exp: z.number().int(),
});
export type TJwtClaims = z.infer<typeof ZJwtClaims>;
