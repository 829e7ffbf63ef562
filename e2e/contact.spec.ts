import { holdRequests, USER_STATE, waitForMail } from './support/fixtures';
import { expect, type Page, test } from './support/test';

// /success-email needs sign-in (RequireAuth in web/src/app/router.tsx), so the journey runs as a signed-in user.
test.use({ storageState: USER_STATE });

const description = 'A rooftop jazz evening for about 80 guests in Zamalek, early December.';

/** Fills the contact form with a valid message under `subject` and sends it. */
async function sendContactForm(page: Page, from: { name: string; email: string }, subject: string) {
  await page.getByLabel('Name').fill(from.name);
  await page.getByLabel('Email').fill(from.email);
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Event Description').fill(description);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('a user sends the contact form and the team receives it by email', async ({ page }) => {
  await page.goto('/events-page/all');
  await page.getByRole('link', { name: 'Hosting an Event?' }).first().click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();

  // Submitting the empty form shows every message; nothing is checked before that.
  await expect(page.getByText('Name is required')).toHaveCount(0);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Subject is required')).toBeVisible();
  await expect(page.getByText('Description must be at least 20 characters long')).toBeVisible();

  // Editing a field clears its message only.
  await page.getByLabel('Name').fill('Nour Hany');
  await expect(page.getByText('Name is required')).toHaveCount(0);
  await expect(page.getByText('Email is required')).toBeVisible();

  await page.getByLabel('Email').fill('nour@example');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Please enter a valid email address (e.g., name@example.com).')).toBeVisible();
  await page.getByLabel('Email').fill('nour@example.com');
  await expect(page.getByText('Please enter a valid email address (e.g., name@example.com).')).toHaveCount(0);

  await page.getByLabel('Subject').fill('Rooftop jazz night <live>');
  await page.getByLabel('Event Description').fill(description);
  await page.getByRole('button', { name: 'Send' }).click();

  await expect(page).toHaveURL(/\/success-email$/);
  await expect(page.getByRole('heading', { name: 'Message Successful' })).toBeVisible();
  await expect(page.getByText('Thank you for completing your message')).toBeVisible();

  const mail = await waitForMail('hosts@eventry.test', /^Eventry contact: Rooftop jazz night <live>$/);
  expect(mail.replyTo).toBe('nour@example.com');
  expect(mail.text).toContain('Nour Hany');
  expect(mail.text).toContain(description);
  expect(mail.html).toContain('Rooftop jazz night &lt;live&gt;');

  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a visitor is told the message went before the confirmation asks them to sign in', async ({ page }) => {
    await page.goto('/contact');
    await sendContactForm(page, { name: 'Visitor Sender', email: 'visitor@example.com' }, 'A garden concert');
    await expect(page.getByText('Message Successful')).toBeVisible();
    await expect(page.getByText('Thank you for completing your message')).toBeVisible();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsuccess-email$/);
    // The sign-in page says why it is there, after the toast has gone too.
    await expect(page.getByText('Sign in to see the confirmation of your message.')).toBeVisible();
    await waitForMail('hosts@eventry.test', /^Eventry contact: A garden concert$/);
  });

  test('a visitor gets the contact form drawn by the server, and what they typed before the app ran is sent once it has', async ({
    page,
  }) => {
    const release = await holdRequests(page, '**/assets/boot-*.js');
    await page.goto('/contact', { waitUntil: 'commit' });
    await expect(page).toHaveTitle('Contact Us · Eventry');
    await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await page.getByLabel('Name').fill('Salma Fathy');
    await page.getByLabel('Email').fill('salma@example.com');
    await page.getByLabel('Subject').fill('Typed before the app ran');
    await page.getByLabel('Event Description').fill(description);
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    release();
    await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    await page.getByRole('button', { name: 'Send' }).click();
    // The confirmation page needs sign-in: the toast says the message went.
    await expect(page.getByText('Message Successful')).toBeVisible();
    const mail = await waitForMail('hosts@eventry.test', /^Eventry contact: Typed before the app ran$/);
    expect(mail.replyTo).toBe('salma@example.com');
    expect(mail.text).toContain(description);
  });
});

test('an Arabic visitor writes to the team in Arabic, right to left, and the team gets it in Arabic', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL as string }]);
  await page.goto('/contact');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page).toHaveTitle(/^تواصل معنا · /);
  await expect(page.getByRole('heading', { name: 'تواصل معنا' })).toBeVisible();
  await expect(page.getByLabel('البريد الإلكتروني')).toHaveAttribute('dir', 'ltr');

  await page.getByRole('button', { name: 'إرسال' }).click();
  await expect(page.getByText('الاسم مطلوب')).toBeVisible();
  await expect(page.getByText('يجب ألا يقل الوصف عن ٢٠ حرفًا')).toBeVisible();
  await page.getByLabel('البريد الإلكتروني').fill('nour@example');
  await page.getByRole('button', { name: 'إرسال' }).click();
  await expect(page.getByText('يُرجى إدخال بريد إلكتروني صحيح (مثل name@example.com).')).toBeVisible();

  await page.getByLabel('الاسم').fill('نور هاني');
  await page.getByLabel('البريد الإلكتروني').fill('nour@example.com');
  await page.getByLabel('الموضوع').fill('أمسية عود على السطح');
  await page.getByLabel('وصف الفعالية').fill('أمسية عود صغيرة لحوالي ثمانين ضيفًا في الزمالك، في أوائل ديسمبر.');
  await page.getByRole('button', { name: 'إرسال' }).click();
  await expect(page).toHaveURL(/\/success-email$/);
  await expect(page.getByRole('heading', { name: 'تم إرسال الرسالة بنجاح' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'العودة إلى الرئيسية' })).toBeVisible();

  const mail = await waitForMail('hosts@eventry.test', /^رسالة تواصل على إيفنتري: \u2068أمسية عود على السطح\u2069$/);
  expect(mail.replyTo).toBe('nour@example.com');
  expect(mail.text).toContain('الاسم: نور هاني');
  expect(mail.html).toContain('<html lang="ar" dir="rtl">');
});

test('a failed send shows the error toast and clears the form', async ({ page }) => {
  // Use up this address's allowance (5 a minute) so that the next send really fails on the server.
  for (let i = 0; i < 6; i++) {
    await page.request.post('/api/contact', {
      data: { name: 'Flood Test', email: 'flood@example.com', subject: `Flood ${i}`, description },
    });
  }
  await page.goto('/contact');
  await sendContactForm(page, { name: 'Nour Hany', email: 'nour@example.com' }, 'One more');

  await expect(page.getByText('Error of send')).toBeVisible();
  // This error toast keeps the dark theme (web/src/features/contact/routes/contact.tsx).
  await expect(page.locator('[data-sonner-toast][data-type="error"]').first()).toHaveCSS(
    'background-color',
    'rgb(0, 0, 0)',
  );
  await expect(page).toHaveURL(/\/contact$/);
  for (const label of ['Name', 'Email', 'Subject', 'Event Description']) {
    await expect(page.getByLabel(label)).toHaveValue('');
  }
});

test('in Arabic, a failed send says so and how long to wait in Arabic', async ({ page, context, baseURL }) => {
  // The test before used up this address's allowance.
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL as string }]);
  await page.goto('/contact');
  await page.getByLabel('الاسم').fill('نور هاني');
  await page.getByLabel('البريد الإلكتروني').fill('nour@example.com');
  await page.getByLabel('الموضوع').fill('رسالة أخرى');
  await page.getByLabel('وصف الفعالية').fill(description);
  await page.getByRole('button', { name: 'إرسال' }).click();
  await expect(page.getByText('تعذّر إرسال الرسالة')).toBeVisible();
  await expect(page.getByText(/^أرسلت رسائل كثيرة\. يُرجى الانتظار .+ ثم المحاولة مرة أخرى\.$/)).toBeVisible();
});
