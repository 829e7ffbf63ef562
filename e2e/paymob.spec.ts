import type { Browser } from '@playwright/test';
import type { EventsPage } from '../contracts/catalogue';
import { addDays, todayIn } from '../contracts/dates';
import { payment } from '../contracts/i18n/en/payment';
import { E2E_PAYMOB_PORT } from '../playwright.config';
import { ADMIN_STATE, createEventAsAdmin, USER, USER_STATE, waitForMail } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/**
 * Paying with Paymob through its stand-in (server/test/paymob-stand-in.ts, started by playwright.config.ts): the
 * buyer leaves for the stand-in's checkout and comes back, or takes a reference number to a "kiosk".
 */

test.use({ storageState: USER_STATE });

const KIOSK = `http://127.0.0.1:${E2E_PAYMOB_PORT}/kiosk`;

/** An event of the test's own (so no other test's bookings change its tickets); deleted afterwards. */
async function withOwnEvent(
  browser: Browser,
  baseURL: string | undefined,
  title: string,
  use: (id: string) => Promise<void>,
): Promise<void> {
  const admin = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
  const { items } = (await (await admin.request.get('/api/events')).json()) as EventsPage;
  const id = await createEventAsAdmin(admin.request, {
    eventDate: addDays(todayIn('Africa/Cairo'), 150),
    imageUrl: items[0]?.imageUrl,
    price: '250',
    tickets: '20',
    title: `${title} ${Date.now().toString(36)}`,
  });
  try {
    await use(id);
  } finally {
    await admin.request.delete(`/api/admin/events/${id}`);
    await admin.close();
  }
}

async function reserveTwo(page: Page, eventId: string): Promise<string> {
  await page.goto(`/event-details/${eventId}/get-ticket`);
  await expect(page.getByText(payment.methodChosenNext)).toBeVisible();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await page.getByRole('button', { name: 'Proceed to Pay 500 EGP' }).click();
  await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get('booking') as string;
}

test('pays by card on Paymob’s checkout and comes back to the tickets', async ({ page, browser, baseURL }) => {
  await withOwnEvent(browser, baseURL, 'Paymob card night', async (eventId) => {
    const bookingId = await reserveTwo(page, eventId);
    const methods = page.getByRole('group', { name: payment.chooseMethod });
    await expect(methods.getByRole('radio')).toHaveCount(4);
    await methods.getByRole('radio', { name: payment.methodPaymobCard }).check();

    const phone = page.getByLabel(payment.phone);
    await phone.fill('0123');
    await page.getByRole('button', { name: payment.continueToPaymob }).click();
    await expect(page.getByText(payment.phoneInvalid)).toBeVisible();
    await phone.fill('010 1234 5678');
    await page.getByRole('button', { name: payment.continueToPaymob }).click();

    // Paymob's page (the stand-in's): pay.
    await expect(page).toHaveURL(new RegExp(`^http://127.0.0.1:${E2E_PAYMOB_PORT}/unifiedcheckout/`));
    await expect(page.getByText('Pay 500.00 EGP by card.')).toBeVisible();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/payment-success\\?booking=${bookingId}$`));
    await expect(page.getByRole('heading', { name: payment.successTitle })).toBeVisible();
    await page.getByRole('link', { name: payment.viewMyTickets }).click();
    await expect(page.getByRole('region', { name: 'Your Tickets' }).getByText(/^Paymob card night /)).toBeVisible();
    const mail = await waitForMail(USER.email, /^Eventry: your tickets for Paymob card night /);
    expect(mail.text).toContain('Tickets: 2 tickets');
    expect(mail.text).toContain('Total paid: 500 EGP');
  });
});

test('a declined card comes back to the failure page, and the hold can still be paid', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, 'Paymob declined', async (eventId) => {
    const bookingId = await reserveTwo(page, eventId);
    await page.getByRole('radio', { name: payment.methodPaymobWallet }).check();
    // The number kept from an earlier payment is offered again (or given now).
    const phone = page.getByLabel(payment.phone);
    if (!(await phone.inputValue())) await phone.fill('01012345678');
    await page.getByRole('button', { name: payment.continueToPaymob }).click();
    await expect(page.getByText('Pay 500.00 EGP by wallet.')).toBeVisible();
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect(page).toHaveURL(new RegExp(`/payment-failed\\?event=${eventId}$`));
    await expect(page.getByRole('heading', { name: payment.failureTitle })).toBeVisible();

    await page.goto(`/payment?booking=${bookingId}`);
    await expect(page.getByRole('radio', { name: payment.methodPaymobWallet })).toBeChecked();
    await page.getByRole('button', { name: payment.continueToPaymob }).click();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page.getByRole('heading', { name: payment.successTitle })).toBeVisible();
  });
});

test('takes a reference number for cash, lists it as Awaiting payment, and shows the tickets once the kiosk is paid', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, 'Paymob cash', async (eventId) => {
    const bookingId = await reserveTwo(page, eventId);
    await page.getByRole('radio', { name: payment.methodPaymobCash }).check();
    const phone = page.getByLabel(payment.phone);
    if (!(await phone.inputValue())) await phone.fill('01012345678');
    await page.getByRole('button', { name: payment.getCashReference }).click();

    const panel = page.getByRole('region', { name: 'Pay 500 EGP in cash' });
    await expect(panel).toBeVisible();
    const reference = (await panel.getByTestId('cash-reference').textContent())?.trim() as string;
    expect(reference).toMatch(/^\d+$/);
    await expect(panel.getByText(/^Pay before \d\d:\d\d [AP]M on [A-Z][a-z]{2} \d{1,2}, \d{4}\./)).toBeVisible();
    // Hours away: no ticking minutes.
    await expect(page.getByText(/Tickets held for you for/)).toHaveCount(0);

    await page.goto('/profile');
    const awaiting = page.getByText(payment.awaitingPayment);
    await expect(awaiting).toBeVisible();
    await expect(page.getByText(new RegExp(`Reference ${reference} · pay 500 EGP before`))).toBeVisible();
    await page.getByRole('link', { name: payment.viewPaymentDetails }).first().click();
    await expect(page).toHaveURL(new RegExp(`/payment\\?booking=${bookingId}$`));
    await expect(page.getByTestId('cash-reference')).toHaveText(reference);

    // The buyer pays at a kiosk (the stand-in's page, in another tab).
    const kiosk = await context.newPage();
    await kiosk.goto(KIOSK);
    await kiosk.getByLabel('Bill reference').fill(reference);
    await kiosk.getByRole('button', { name: 'Take cash' }).click();
    await expect(kiosk.getByRole('status')).toHaveText('Paid');
    await kiosk.close();

    // The payment page notices by itself.
    await expect(page).toHaveURL(new RegExp(`/payment-success\\?booking=${bookingId}$`), { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: payment.successTitle })).toBeVisible();
    await page.goto('/profile');
    await expect(page.getByText(payment.awaitingPayment)).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Your Tickets' }).getByText(/^Paymob cash /)).toBeVisible();
  });
});
