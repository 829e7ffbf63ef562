import { z } from 'zod';
import { EXAMPLE_EMAIL } from './example-email';
import { LANGUAGES } from './i18n/languages';
import { msg } from './i18n/text';
import { requiredOr } from './text';

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** GET /api/me: the signed-in user's profile. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Profile picture URL; null means the bundled default avatar. */
  imageUrl: z.string().nullable(),
  role: roleSchema,
  emailVerified: z.boolean(),
  /** Whether the user keeps the door of any event (door staff: the check-in pages). */
  doorStaff: z.boolean(),
  /** The language the user chose (their emails are written in it, and a sign-in sets it); null before any choice. */
  language: z.enum(LANGUAGES).nullable(),
});
export type Me = z.infer<typeof meSchema>;

/** PUT /api/me/language: the signed-in user's language, for their emails and their next sign-ins. */
export const languageBodySchema = z.strictObject({
  language: z.enum(LANGUAGES, { error: msg('accounts.languageInvalid') }),
});
export type LanguageBody = z.infer<typeof languageBodySchema>;

// ---------------------------------------------------------------------------
// Limits and rules of the account forms (sign-up-sign-in.test.ts has a case for each). The server checks them
// again with these same schemas.
// ---------------------------------------------------------------------------

export const NAME_MIN_LENGTH = 3;
export const NAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
/** Reset and verification tokens are short opaque strings; anything longer is not one. */
export const TOKEN_MAX_LENGTH = 512;

/**
 * Letters, digits and ._%+- before @, then a domain ending in 2 or more letters: a plain check that the form and
 * the API share (the verification email is what proves an address).
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
/**
 * Letters (any alphabet, so Arabic names work too) with their marks, and spaces: 'مُحَمَّد' with its vowel
 * marks, and 'José' typed as e + combining accent (as some keyboards and pasted text spell it).
 */
const NAME_PATTERN = /^(?:\p{L}\p{M}*| )+$/u;
/** An uppercase letter followed by letters (any alphabet, accents included), digits or common symbols. */
const PASSWORD_PATTERN = /^\p{Lu}\p{M}*[\p{L}\p{M}0-9!@#$%^&*()_+\-=[\]{};':"\\|,.<>/?`~]*$/u;

// The schemas' messages are keys (contracts/i18n): the web shows them in the page's language, the server answers
// them in the request's (server/plugins/errors.ts).

const PASSWORD_TOO_LONG = msg('accounts.passwordTooLong', { max: PASSWORD_MAX_LENGTH });

/** One name field: 'Both fields are required' → 'Minimum 3 charachters…' → 'Only characters are allowed'. */
const nameSchema = z
  .string({ error: requiredOr(msg('signup.namesRequired')) })
  .trim()
  .min(1, msg('signup.namesRequired'))
  // Letters, not code units: a vowel mark or an accent typed apart is part of its letter.
  .refine((name) => name.replace(/\p{M}/gu, '').length >= NAME_MIN_LENGTH, msg('signup.nameTooShort'))
  .max(NAME_MAX_LENGTH, msg('accounts.nameTooLong', { max: NAME_MAX_LENGTH }))
  .regex(NAME_PATTERN, msg('signup.nameLettersOnly'));

const signupEmailSchema = z
  .string({ error: requiredOr(msg('signup.fieldRequired')) })
  .trim()
  .min(1, msg('signup.fieldRequired'))
  .max(EMAIL_MAX_LENGTH, msg('accounts.emailTooLong', { max: EMAIL_MAX_LENGTH }))
  .regex(EMAIL_PATTERN, msg('signup.emailFormat', { email: EXAMPLE_EMAIL }))
  .transform((email) => email.toLowerCase());

/** A new password (sign-up, reset, profile). */
export const newPasswordSchema = z
  .string({ error: requiredOr(msg('signup.fieldRequired')) })
  .min(1, msg('signup.fieldRequired'))
  .min(PASSWORD_MIN_LENGTH, msg('signup.passwordTooShort'))
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)
  .regex(PASSWORD_PATTERN, msg('signup.passwordUppercase'));

/** The profile page's New Password: empty means "keep the current one". */
const optionalNewPasswordSchema = z
  .string()
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)
  .refine((v) => v === '' || v.length >= PASSWORD_MIN_LENGTH, msg('signup.passwordTooShort'))
  .refine((v) => v === '' || PASSWORD_PATTERN.test(v), msg('signup.passwordUppercase'));

/** Web form of the sign-up page. */
export const signUpFormSchema = z
  .object({
    firstName: nameSchema,
    lastName: nameSchema,
    email: signupEmailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: msg('signup.confirmMismatch'),
    when: () => true,
  });
export type SignUpForm = z.input<typeof signUpFormSchema>;

/**
 * POST /api/auth/sign-up/email. `name` is accepted for better-auth clients but always recomputed
 * from the first and last names; every other field is refused.
 */
export const signUpBodySchema = z.strictObject({
  firstName: nameSchema,
  lastName: nameSchema,
  email: signupEmailSchema,
  password: newPasswordSchema,
  name: z
    .string()
    .max(NAME_MAX_LENGTH * 2 + 1)
    .optional(),
  callbackURL: z.string().max(200).optional(),
  rememberMe: z.boolean().optional(),
});
export type SignUpBody = z.input<typeof signUpBodySchema>;

const loginEmailSchema = z
  .string({ error: requiredOr(msg('login.emailRequired')) })
  .trim()
  .min(1, msg('login.emailRequired'))
  .max(EMAIL_MAX_LENGTH, msg('login.emailInvalid'))
  .regex(EMAIL_PATTERN, msg('login.emailInvalid'))
  .transform((email) => email.toLowerCase());

/** Web form of the login page. */
export const loginFormSchema = z.object({
  email: loginEmailSchema,
  password: z
    .string({ error: requiredOr(msg('login.passwordRequired')) })
    .min(1, msg('login.passwordRequired'))
    .max(PASSWORD_MAX_LENGTH, msg('login.wrongCredentials')),
});
export type LoginForm = z.input<typeof loginFormSchema>;

/** POST /api/auth/sign-in/email. */
export const signInBodySchema = loginFormSchema
  .extend({
    rememberMe: z.boolean().optional(),
    callbackURL: z.string().max(200).optional(),
  })
  .strict();

/**
 * /forgot-pass: an email that is required and valid. The page shows no message under the field, it only outlines
 * it (e2e/accounts.spec.ts: 'the reset page outlines a bad email without a message').
 */
export const forgotPasswordFormSchema = z.object({ email: loginEmailSchema });
export type ForgotPasswordForm = z.input<typeof forgotPasswordFormSchema>;

/** POST /api/auth/request-password-reset. The reset page is always ours: redirectTo is ignored. */
export const requestPasswordResetBodySchema = z.strictObject({
  email: loginEmailSchema,
  redirectTo: z.string().max(200).optional(),
});

/** Web form of /reset-password. */
export const resetPasswordFormSchema = z
  .object({ newPassword: newPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: msg('signup.confirmMismatch'),
    when: () => true,
  });
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;

/** POST /api/auth/reset-password. */
export const resetPasswordBodySchema = z.strictObject({
  newPassword: newPasswordSchema,
  token: z.string().min(1).max(TOKEN_MAX_LENGTH),
});

/** POST /api/auth/send-verification-email (signed in: the address must be the user's own). */
export const sendVerificationBodySchema = z.strictObject({
  email: loginEmailSchema,
  callbackURL: z.string().max(200).optional(),
});

/** Web form of /edit-profile: the password fields are optional there. */
export const profileFormSchema = z
  .object({
    firstName: nameSchema,
    lastName: nameSchema,
    newPassword: optionalNewPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: msg('signup.confirmMismatch'),
    when: () => true,
  });
export type ProfileForm = z.input<typeof profileFormSchema>;

/** PATCH /api/me. The email is not editable; a new password ends the user's other sessions. */
export const updateProfileBodySchema = z.strictObject({
  firstName: nameSchema,
  lastName: nameSchema,
  newPassword: newPasswordSchema.optional(),
  /** The picture to show: the current one, or the one just uploaded (POST /api/me/avatar). */
  imageUrl: z.string().max(500).nullable().optional(),
});

/** POST /api/me/avatar: the uploaded picture, shown as a preview until the profile is saved. */
export const uploadedAvatarSchema = z.object({ imageUrl: z.string() });
export type UploadedAvatar = z.infer<typeof uploadedAvatarSchema>;
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;

/** Only same-site relative paths may be used as a redirect target (zod-free module: the web's first load uses it). */
export { safeRedirectPath } from './redirect';
