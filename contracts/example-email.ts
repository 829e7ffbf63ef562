/** The spec writes example addresses as {email}; we show a concrete one (a placeholder's value in the messages). */
export const EXAMPLE_EMAIL = 'name@example.com';
