/** Only same-site relative paths may be used as a redirect target (no //host, no /\host). Zod-free on purpose. */
export function safeRedirectPath(value: string | null | undefined, fallback = '/'): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  for (const char of value) if (char.charCodeAt(0) < 0x20) return fallback;
  return value;
}
