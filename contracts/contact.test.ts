import { describe, expect, it } from 'vitest';
import { CONTACT_LIMITS, contactFormSchema, contactFieldErrors as fieldErrors } from './contact';
import { i18nOf, MESSAGES } from './i18n/all';
import { messageText } from './i18n/text';

/** The form's messages as the English page words them (the schema gives keys). */
function contactFieldErrors(input: unknown, lang: 'en' | 'ar' = 'en') {
  const i18n = i18nOf(lang);
  return Object.fromEntries(Object.entries(fieldErrors(input)).map(([field, key]) => [field, messageText(i18n, key)]));
}

const valid = {
  name: 'Nour Hany',
  email: 'nour@example.com',
  subject: 'Jazz night',
  description: 'A small jazz evening for about 80 guests in Zamalek.',
};

describe('contact form schema (the rules the web form shows on submit)', () => {
  it('accepts a complete message and trims every field', () => {
    const parsed = contactFormSchema.parse({ ...valid, name: '  Nour Hany  ', subject: ' Jazz night\t' });
    expect(parsed).toEqual(valid);
  });

  it('asks for every field of an empty form with the spec messages', () => {
    expect(contactFieldErrors({ name: '', email: '', subject: '', description: '' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      description: 'Description must be at least 20 characters long',
    });
  });

  it('treats missing fields like empty ones', () => {
    expect(contactFieldErrors({})).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      description: 'Description must be at least 20 characters long',
    });
  });

  it('needs a name of at least 3 characters after trimming', () => {
    expect(contactFieldErrors({ ...valid, name: '  ab  ' })).toEqual({
      name: 'Name must be at least 3 characters long',
    });
    expect(contactFieldErrors({ ...valid, name: '   ' })).toEqual({ name: 'Name is required' });
  });

  it('shows the example address in the invalid email message', () => {
    const expected = 'Please enter a valid email address (e.g., name@example.com).';
    expect(MESSAGES.en.contact.emailInvalid).toContain('{email}');
    for (const email of ['nour', 'nour@', 'nour@example', 'no ur@example.com', 'a<b>@example.com', 'a,b@example.com']) {
      expect(contactFieldErrors({ ...valid, email })).toEqual({ email: expected });
    }
  });

  it('needs a description of at least 20 characters after trimming', () => {
    expect(contactFieldErrors({ ...valid, description: `   ${'x'.repeat(19)}   ` })).toEqual({
      description: 'Description must be at least 20 characters long',
    });
    expect(contactFieldErrors({ ...valid, description: 'x'.repeat(20) })).toEqual({});
  });

  it('caps the size of every field', () => {
    expect(contactFieldErrors({ ...valid, name: 'n'.repeat(CONTACT_LIMITS.name + 1) })).toEqual({
      name: `Must be at most ${CONTACT_LIMITS.name} characters`,
    });
    expect(contactFieldErrors({ ...valid, description: 'd'.repeat(CONTACT_LIMITS.description + 1) })).toEqual({
      description: `Must be at most ${CONTACT_LIMITS.description} characters`,
    });
  });

  it('strips control characters; the description keeps its line breaks', () => {
    const parsed = contactFormSchema.parse({
      ...valid,
      subject: 'Hello\r\nBcc: someone@example.com',
      name: 'Nour\u0000 Hany\u202e',
      description: 'Line one is here\r\nLine two\u0007 is here\ttoo',
    });
    expect(parsed.subject).toBe('Hello  Bcc: someone@example.com');
    expect(parsed.name).toBe('Nour  Hany');
    expect(parsed.description).toBe('Line one is here\nLine two is here\ttoo');
  });

  it('does not count invisible characters towards a minimum, and trims them from the ends', () => {
    expect(
      contactFieldErrors({
        name: 'ab\u200b',
        email: valid.email,
        subject: '\u200b\u2060',
        description: `d${'\u200b'.repeat(30)}`,
      }),
    ).toEqual({
      name: 'Name must be at least 3 characters long',
      subject: 'Subject is required',
      description: 'Description must be at least 20 characters long',
    });
    expect(contactFieldErrors({ ...valid, name: 'a\u200db\u200c' })).toEqual({
      name: 'Name must be at least 3 characters long',
    });
    const parsed = contactFormSchema.parse({ ...valid, name: '\ufeffNour Hany\u200b ', subject: 'Hi 👩\u200d💻' });
    expect(parsed.name).toBe('Nour Hany');
    expect(parsed.subject).toBe('Hi 👩\u200d💻');
  });

  it('gives its messages as keys, which the Arabic page words in Arabic', () => {
    expect(fieldErrors({})).toMatchObject({ name: 'contact.nameRequired' });
    expect(contactFieldErrors({ ...valid, name: 'ab' }, 'ar')).toEqual({ name: 'يجب ألا يقل الاسم عن ٣ أحرف' });
    expect(contactFieldErrors({ ...valid, email: 'nour@' }, 'ar')).toEqual({
      email: 'يُرجى إدخال بريد إلكتروني صحيح (مثل name@example.com).',
    });
    expect(contactFieldErrors({ ...valid, subject: 's'.repeat(CONTACT_LIMITS.subject + 1) }, 'ar')).toEqual({
      subject: 'يجب ألا يتجاوز عدد الأحرف ٢٠٠',
    });
    expect(contactFieldErrors({ ...valid, name: 12345 }, 'ar')).toEqual({ name: 'يجب أن تكون القيمة نصًا' });
  });

  it('refuses unknown fields', () => {
    expect(contactFormSchema.safeParse({ ...valid, admin: true }).success).toBe(false);
  });
});
