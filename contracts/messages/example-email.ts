/** The spec writes example addresses as {email}; we show a concrete one. */
export const EXAMPLE_EMAIL = 'name@example.com';
export function withExampleEmail(text: string): string {
  return text.replace('{email}', EXAMPLE_EMAIL);
}
