import { mkdirSync } from 'node:fs';
import { expect, test as setup } from '@playwright/test';
import { ADMIN, ADMIN_STATE, USER, USER_STATE } from './support/fixtures';

// Sign in once per role through the API and keep the session for the journeys that need it.
setup('sign in as a user and as the admin', async ({ playwright, baseURL }) => {
  mkdirSync('.tmp', { recursive: true });
  const user = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL as string } });
  const signUp = await user.post('/api/auth/sign-up/email', {
    data: { ...USER, name: `${USER.firstName} ${USER.lastName}` },
  });
  expect(signUp.ok()).toBe(true);
  await user.storageState({ path: USER_STATE });
  await user.dispose();

  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL as string } });
  const signIn = await admin.post('/api/auth/sign-in/email', { data: ADMIN });
  expect(signIn.ok()).toBe(true);
  await admin.storageState({ path: ADMIN_STATE });
  await admin.dispose();
});
