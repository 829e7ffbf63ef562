import { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getMe, meQueryKey } from '../features/accounts/api/get-me';
import { api, onSessionEnded } from '../lib/api-client';
import { forgetEndedSessions } from './session-end';

function answer(status: number, code: string) {
  const body = JSON.stringify({
    type: 'about:blank',
    title: 'Unauthorized',
    status,
    detail: 'Sign in to continue',
    code,
  });
  vi.stubGlobal(
    'fetch',
    async () => new Response(body, { status, headers: { 'content-type': 'application/problem+json' } }),
  );
}

const user = { id: 'u1', email: 'layla@example.com', firstName: 'Layla', lastName: 'Hassan', role: 'user' };

/** The toast saying why the user was signed out has been raised (its chunk loads lazily). */
async function sessionEndedToastRaised(): Promise<void> {
  await vi.waitFor(() => expect(toast.getHistory().map((raised) => raised.id)).toContain('session-ended'));
}

describe('forgetEndedSessions', () => {
  // The toast reads the page's language from <html lang>: an English page.
  beforeEach(() => {
    vi.stubGlobal('document', { documentElement: { lang: 'en' } });
  });
  afterEach(async () => {
    // The toast's chunk, started by a test, has run before the page it reads is taken away (left running, it
    // failed after its file had ended, whenever the import came back late: Vitest counted an unhandled error).
    await import('./app-toasts');
    await new Promise((resolve) => setTimeout(resolve, 0));
    vi.unstubAllGlobals();
    onSessionEnded(() => {});
  });

  it('forgets the signed-in user when a call needing a session answers 401 UNAUTHENTICATED', async () => {
    const client = new QueryClient();
    client.setQueryData(meQueryKey, user);
    forgetEndedSessions(client);
    answer(401, 'UNAUTHENTICATED');
    await expect(api.get('/api/me/bookings')).rejects.toMatchObject({ status: 401 });
    expect(client.getQueryData(meQueryKey)).toBeNull();
    await sessionEndedToastRaised();
  });

  it('has forgotten the user by the time the caller handles the error', async () => {
    const client = new QueryClient();
    client.setQueryData(meQueryKey, user);
    forgetEndedSessions(client);
    answer(401, 'UNAUTHENTICATED');
    const seen = await api.post('/api/payments/simulated/confirm').catch(() => client.getQueryData(meQueryKey));
    expect(seen).toBeNull();
  });

  it('keeps the user on a wrong password (401 INVALID_CREDENTIALS) and on other refusals', async () => {
    const client = new QueryClient();
    client.setQueryData(meQueryKey, user);
    forgetEndedSessions(client);
    answer(401, 'INVALID_CREDENTIALS');
    await expect(api.post('/api/auth/sign-in/email', {})).rejects.toMatchObject({ status: 401 });
    answer(403, 'FORBIDDEN');
    await expect(api.get('/api/admin/events')).rejects.toMatchObject({ status: 403 });
    expect(client.getQueryData(meQueryKey)).toEqual(user);
  });

  it('leaves a visitor as they are (no user was known: no session has ended)', async () => {
    const client = new QueryClient();
    forgetEndedSessions(client);
    answer(401, 'UNAUTHENTICATED');
    await expect(api.get('/api/me/bookings')).rejects.toMatchObject({ status: 401 });
    expect(client.getQueryData(meQueryKey)).toBeUndefined();
  });
});

describe('getMe', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    onSessionEnded(() => {});
  });

  function meAnswers(value: unknown) {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  }

  it('reports an ended session when /api/me answers null (the cookie went with the session)', async () => {
    const ended = vi.fn();
    onSessionEnded(ended);
    meAnswers(null);
    await expect(getMe()).resolves.toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
    meAnswers(user);
    await expect(getMe()).resolves.toEqual(user);
    expect(ended).toHaveBeenCalledTimes(1);
  });
});
