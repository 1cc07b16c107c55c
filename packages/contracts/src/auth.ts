import { z } from 'zod';

/** E-mails are compared and stored trimmed and lower-cased. */
export const ZEmail = z
  .string({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address.' }).max(254));

export const PASSWORD_MIN_LENGTH = 8;
/** argon2 hashes anything, but an unbounded input is a cheap way to burn server CPU. */
export const PASSWORD_MAX_LENGTH = 128;

export const ZPassword = z
  .string({ error: 'Password is required.' })
  .min(PASSWORD_MIN_LENGTH, {
    error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  })
  .max(PASSWORD_MAX_LENGTH, {
    error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  });

export const ZUsername = z
  .string({ error: 'Username is required.' })
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
  confirm_password: z.string({ error: 'Confirm password is required.' }),
});
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZLoginRequest = z.object({
  email: ZEmail,
  // No length rule on login: a wrong password must get the same answer whatever its shape.
  password: z.string({ error: 'Password is required.' }).min(1, { error: 'Password is required.' }),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZPublicUser = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
});
export type TPublicUser = z.infer<typeof ZPublicUser>;

export const ZLoginResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: ZPublicUser,
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZSignupResponse = z.object({
  message: z.string(),
  user: ZPublicUser,
});
export type TSignupResponse = z.infer<typeof ZSignupResponse>;

export const ZForgotPasswordQuery = z.object({ email: ZEmail });
export type TForgotPasswordQuery = z.infer<typeof ZForgotPasswordQuery>;

export const ZResetPasswordRequest = z.object({
  token: z.string({ error: 'Token is required.' }).trim().max(256),
  new_password: ZPassword,
  confirm_password: z.string({ error: 'Confirm password is required.' }),
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** Claims of the access token. `sub` is the user id. */
export const ZJwtClaims = z.object({
  sub: z.uuid(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type TJwtClaims = z.infer<typeof ZJwtClaims>;
