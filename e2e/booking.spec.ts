import type { Browser, BrowserContext } from '@playwright/test';
import type { EventInput } from '../contracts/admin';
import type { EventsPage } from '../contracts/catalogue';
import { addDays, todayIn } from '../contracts/dates';
import { payment } from '../contracts/i18n/en/payment';
import {
  ADMIN_STATE,
  createEventAsAdmin,
  eventForm,
  holdRequests,
  loginFor,
  USER,
  USER_STATE,
  waitForMail,
} from './support/fixtures';
import { expect, type Page, test } from './support/test';

test.use({ storageState: USER_STATE });

/** From the events list to the ticket selection of the first event; returns its title. */
async function openTicketSelection(page: Page): Promise<string> {
  await page.goto('/events-page/all');
  await page.locator('a[href^="/event-details/"]').first().click();
  await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
  await page.locator('a[href$="/get-ticket"]').first().click();
  await expect(page).toHaveURL(/\/get-ticket$/);
  const title = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  expect(title.length).toBeGreaterThan(0);
  return title;
}

/**
 * An event of the test's own, created by the admin (200 days ahead, with a demo event's picture, `fields` on top
 * of the defaults, the title made unique), and the admin's browser context, which the caller closes.
 */
async function createOwnEvent(
  browser: Browser,
  baseURL: string | undefined,
  fields: Partial<EventInput> & { title: string },
): Promise<{ admin: BrowserContext; id: string }> {
  const admin = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
  const { items } = (await (await admin.request.get('/api/events')).json()) as EventsPage;
  const id = await createEventAsAdmin(admin.request, {
    eventDate: addDays(todayIn('Africa/Cairo'), 200),
    imageUrl: items[0]?.imageUrl,
    ...fields,
    title: `${fields.title} ${Date.now().toString(36)}`,
  });
  return { admin, id };
}

/** Reserves the event's default quantity on its ticket page and waits for the payment page's address. */
async function reserveOnTicketPage(page: Page, eventId: string): Promise<void> {
  await page.goto(`/event-details/${eventId}/get-ticket`);
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
}

/**
 * Runs `use` with an event of the test's own (created by the admin, 200 days ahead, `fields` on top of
 * the defaults), so no other test's bookings change its tickets; the event is deleted afterwards.
 */
async function withOwnEvent(
  browser: Browser,
  baseURL: string | undefined,
  fields: Partial<EventInput> & { title: string },
  use: (id: string) => Promise<void>,
): Promise<void> {
  const { admin, id } = await createOwnEvent(browser, baseURL, fields);
  try {
    await use(id);
  } finally {
    expect((await admin.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
    await admin.close();
  }
}

async function payWith(page: Page, cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \d+(\.\d+)? EGP$/ }).click();
}

test('books two tickets, pays with 4242 and finds them under Your Tickets', async ({ page }) => {
  const title = await openTicketSelection(page);
  const decrease = page.getByRole('button', { name: 'Decrease quantity' });
  const increase = page.getByRole('button', { name: 'Increase quantity' });
  const proceed = page.getByRole('button', { name: /^Proceed to Pay \d+(\.\d+)? EGP$/ });

  await expect(decrease).toBeDisabled();
  const unitText = (await proceed.textContent()) ?? '';
  const unit = Number(/Pay ([\d.]+) EGP/.exec(unitText)?.[1]);
  // Several ways to pay are configured (the simulated card and Paymob's): the payment page offers them.
  await expect(page.getByText(payment.methodChosenNext)).toBeVisible();

  for (let i = 0; i < 10; i++) await increase.click();
  await expect(page.locator('output[aria-label="Quantity"]')).toHaveText('11');
  await expect(increase).toBeDisabled();
  // No price for 11 tickets, which cannot be bought: the button names none.
  await expect(proceed).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Proceed to Pay', exact: true })).toBeDisabled();
  await expect(page.getByText('You can book at most 10 tickets at once.')).toBeVisible();
  for (let i = 0; i < 9; i++) await decrease.click();
  await expect(proceed).toBeEnabled();
  await expect(proceed).toHaveText(`Proceed to Pay ${unit * 2} EGP`);

  await proceed.click();
  await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
  await expect(page.getByText(/Tickets held for you for/)).toBeVisible();
  // The test cards, each with what it does.
  await expect(
    page.getByText(
      '4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined and 4000 0000 0000 9995 has insufficient funds.',
      { exact: false },
    ),
  ).toBeVisible();
  await payWith(page, '4242 4242 4242 4242');

  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByText('Your event ticket has been booked and is available in your profile')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back To Event' })).toBeVisible();
  await page.getByRole('link', { name: 'View My Tickets' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const tickets = page.getByRole('region', { name: 'Your Tickets' });
  await expect(tickets.getByText(title)).toBeVisible();
  await expect(tickets.getByText(`${unit * 2} EGP`).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your History' })).toBeVisible();

  // The confirmation reaches the buyer over SMTP (queued as data with the payment, rendered by the worker).
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mail = await waitForMail(USER.email, new RegExp(`^Eventry: your tickets for ${escaped}$`));
  expect(mail.text).toContain(`Hi ${USER.firstName}`);
  expect(mail.text).toContain(`Your booking for ${title} is confirmed.`);
  expect(mail.text).toContain('Tickets: 2 tickets');
  expect(mail.text).toContain(`Total paid: ${unit * 2} EGP`);
  expect(mail.html).toContain('Your booking is confirmed');

  // The ticket's title leads back to its event.
  await tickets.getByRole('link', { name: title }).first().click();
  await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('a ticket of an event the organiser removes moves to Your History, which says why', async ({
  page,
  browser,
  baseURL,
}) => {
  let title = '';
  await withOwnEvent(browser, baseURL, { title: 'Called Off Show' }, async (id) => {
    await page.goto(`/event-details/${id}/get-ticket`);
    title = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
    expect(title).toMatch(/^Called Off Show \w+$/);
    await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
    await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
    await payWith(page, '4242 4242 4242 4242');
    await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
    await page.goto('/profile');
    const ticket = page.getByRole('region', { name: 'Your Tickets' }).getByRole('listitem').filter({ hasText: title });
    await expect(ticket).toBeVisible();
    await expect(ticket.getByText('Removed by the organiser')).toHaveCount(0);
  });
  // withOwnEvent has deleted the event, as the admin's delete button does, while its sales were open.
  await page.goto('/profile');
  const removed = page.getByRole('region', { name: 'Your History' }).getByRole('listitem').filter({ hasText: title });
  await expect(removed).toBeVisible();
  await expect(removed.getByText('Removed by the organiser')).toBeVisible();
  // No link to an event page that is gone, and no longer among the tickets.
  await expect(removed.getByRole('link')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Your Tickets' }).getByText(title)).toHaveCount(0);
});

test('shows a declined card’s message inline and keeps the reservation payable', async ({ page }) => {
  await openTicketSelection(page);
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\?booking=/);
  // Sent empty: the card number is what is missing first, and the focus goes there.
  const pay = page.getByRole('button', { name: /^Pay / });
  await pay.click();
  await expect(page.getByRole('alert')).toHaveText('Your card number is incomplete.');
  const number = page.getByLabel('Card number');
  await expect(number).toBeFocused();
  await expect(number).toHaveAttribute('aria-invalid', 'true');

  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await expect(page).toHaveURL(/\/payment\?booking=/);
  // The keyboard is not sent back to the top of the page: it is on the card to change.
  await expect(number).toBeFocused();
});

test('names the payment method only once the payment configuration has arrived', async ({ page }) => {
  const release = await holdRequests(page, '**/api/payments/config');
  await openTicketSelection(page);
  await expect(page.getByText('Payment method')).toBeVisible();
  await expect(page.getByText(payment.methodChosenNext)).toHaveCount(0);
  await expect(page.getByText('Stripe', { exact: true })).toHaveCount(0);
  release();
  await expect(page.getByText(payment.methodChosenNext)).toBeVisible();
});

test('an expired hold says so and links back to the ticket selection', async ({ page }) => {
  await page.clock.install();
  await openTicketSelection(page);
  const ticketPage = new URL(page.url()).pathname;
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  const countdown = page.getByText(/Tickets held for you for/);
  await expect(countdown).toBeVisible();
  const lastMinute = page.getByRole('status').filter({ hasText: 'Less than a minute left to pay.' });
  await expect(lastMinute).toHaveCount(0);
  const color = () => countdown.evaluate((element) => getComputedStyle(element).color);
  const calmColor = await color();
  await page.clock.fastForward('09:10');
  // The last minute is said once and the countdown changes colour.
  await expect(lastMinute).toHaveCount(1);
  expect(await color()).not.toBe(calmColor);
  await page.clock.fastForward('01:50');
  await expect(page.getByText('Your hold on these tickets has expired.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Choose your tickets again' })).toHaveAttribute('href', ticketPage);
  // Nothing left to pay with: the server would refuse to charge an ended hold anyway (409 HOLD_ENDED).
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  await expect(page.getByLabel('Card number')).toHaveCount(0);
});

test('a device whose clock runs 5 minutes ahead still counts the hold down from the server’s 10 minutes', async ({
  page,
}) => {
  await page.clock.install({ time: new Date(Date.now() + 5 * 60_000) });
  await openTicketSelection(page);
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  // On the device's own clock the hold would have about 5 minutes left (and ended 5 minutes early).
  await expect(page.getByText(/Tickets held for you for/)).toContainText(/(09:[0-5]\d|10:00)/);
  await expect(page.getByLabel('Card number')).toBeVisible();
});

test('a payment Stripe reports as failed shows the failure page at once', async ({ page }) => {
  await openTicketSelection(page);
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\?booking=/);
  const bookingId = new URL(page.url()).searchParams.get('booking');
  // The booking is still pending: without Stripe's verdict the page would wait for it to settle.
  await page.goto(`/payment-success?booking=${bookingId}&redirect_status=failed`);
  await expect(page.getByRole('heading', { name: 'Something Went Wrong' })).toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole('link', { name: 'Back To Event' })).toHaveAttribute('href', /\/event-details\//);
});

test('shows the failure page for a booking id that is not the user’s', async ({ page }) => {
  await page.goto('/payment-success?booking=00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Something Went Wrong' })).toBeVisible();
  await expect(page.getByText('Please try again or contact support for assistance')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back To Event' })).toBeVisible();
});

test('a buyer holding 1 of the last 2 tickets comes back to the ticket page and reserves both', async ({
  page,
  browser,
  baseURL,
}) => {
  const increase = page.getByRole('button', { name: 'Increase quantity' });
  const quantity = page.locator('output[aria-label="Quantity"]');
  const proceed = page.getByRole('button', { name: /^Proceed to Pay/ });
  const lastTwo = { title: 'Last Two Seats', description: 'Only two tickets in all.', tickets: '2' };

  await withOwnEvent(browser, baseURL, lastTwo, async (id) => {
    await page.goto(`/event-details/${id}/get-ticket`);
    await expect(page.getByText('2 tickets left', { exact: true })).toBeVisible();
    await proceed.click();
    await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
    await expect(page.getByText(/Tickets held for you for/)).toBeVisible();
    const first = new URL(page.url()).searchParams.get('booking');

    // Back to the page the app had cached (2 left when it was shown): 1 left now, and the buyer's 1 on top.
    await page.goBack();
    await expect(page).toHaveURL(/\/get-ticket$/);
    await expect(page.getByText('2 tickets left, including the 1 held for you', { exact: true })).toBeVisible();
    await increase.click();
    await expect(quantity).toHaveText('2');
    await expect(proceed).toHaveText('Proceed to Pay 20 EGP');
    await expect(proceed).toBeEnabled();
    // The plus button stops one above what can be had, and says why.
    await increase.click();
    await expect(page.getByText('Not enough tickets left: 2 available.')).toBeVisible();
    await expect(proceed).toBeDisabled();
    await expect(increase).toBeDisabled();
    await page.getByRole('button', { name: 'Decrease quantity' }).click();

    await proceed.click();
    await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
    const second = new URL(page.url()).searchParams.get('booking');
    expect(second).not.toBe(first);
    await expect(page.getByText(/Tickets held for you for/)).toBeVisible();
    const booking = await (await page.request.get(`/api/bookings/${second}`)).json();
    expect(booking).toMatchObject({ status: 'pending', quantity: 2, totalPiasters: 2_000 });
    expect((await (await page.request.get(`/api/bookings/${first}`)).json()).status).toBe('cancelled');
    expect((await (await page.request.get(`/api/events/${id}`)).json()).ticketsAvailable).toBe(0);
  });
});

test('a second tab of the same buyer counts their own hold when it takes the last ticket, not "sold out"', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(
    browser,
    baseURL,
    { title: 'One Seat', description: 'A single ticket.', tickets: '1' },
    async (id) => {
      await page.goto(`/event-details/${id}/get-ticket`);
      await expect(page.getByText('1 ticket left', { exact: true })).toBeVisible();
      // The same buyer reserves it in another tab: this one hears of the count through the live stream.
      const other = await page.context().newPage();
      await reserveOnTicketPage(other, id);
      await expect(page.getByText('1 ticket left, including the 1 held for you', { exact: true })).toBeVisible();
      await expect(page.getByText('This event is sold out.')).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Proceed to Pay/ })).toBeEnabled();
      await other.close();
    },
  );
});

test('the quantity buttons keep the keyboard focus at their limits', async ({ page, browser, baseURL }) => {
  await withOwnEvent(browser, baseURL, { title: 'Focus Seats', description: 'Plenty.', tickets: '50' }, async (id) => {
    await page.goto(`/event-details/${id}/get-ticket`);
    const increase = page.getByRole('button', { name: 'Increase quantity' });
    const decrease = page.getByRole('button', { name: 'Decrease quantity' });
    const quantity = page.locator('output[aria-label="Quantity"]');
    await decrease.focus();
    await page.keyboard.press('Enter');
    await expect(quantity).toHaveText('1');
    await expect(decrease).toBeDisabled();
    await expect(decrease).toBeFocused();
    await increase.focus();
    for (let i = 0; i < 12; i++) await page.keyboard.press('Enter');
    // One above the limit, so that the limit can be seen; no further.
    await expect(quantity).toHaveText('11');
    await expect(increase).toBeDisabled();
    await expect(increase).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(decrease).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(quantity).toHaveText('10');
    await expect(page.getByRole('button', { name: 'Proceed to Pay 100 EGP' })).toBeEnabled();
  });
});

test('the payment page leads back to the ticket selection, which starts at the tickets held', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Change Tickets' }, async (id) => {
    const ticketPage = `/event-details/${id}/get-ticket`;
    await page.goto(ticketPage);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Proceed to Pay 20 EGP' }).click();
    await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);

    // The page has no header: this link is the way back short of the browser's Back button.
    const change = page.getByRole('link', { name: 'Change tickets' });
    await expect(change).toHaveAttribute('href', ticketPage);
    await change.click();
    await expect(page).toHaveURL(new RegExp(`${ticketPage}$`));
    await expect(page.getByText('5 tickets left, including the 2 held for you', { exact: true })).toBeVisible();
    await expect(page.locator('output[aria-label="Quantity"]')).toHaveText('2');
    await expect(page.getByRole('button', { name: 'Proceed to Pay 20 EGP' })).toBeEnabled();
  });
});

test('a buyer who cancels the reservation lands on the event with its tickets back on sale', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Cancel Hold', tickets: '4' }, async (id) => {
    await page.goto(`/event-details/${id}/get-ticket`);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Proceed to Pay 20 EGP' }).click();
    await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
    const bookingId = new URL(page.url()).searchParams.get('booking');
    expect((await (await page.request.get(`/api/events/${id}`)).json()).ticketsAvailable).toBe(2);

    // One click asks first; "Keep it" (or Escape) keeps the hold and gives the focus back.
    const cancel = page.getByRole('button', { name: 'Cancel reservation' });
    await cancel.click();
    const question = page.getByRole('group', { name: 'Let these tickets go?' });
    await expect(question.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(question).toHaveCount(0);
    await expect(cancel).toBeFocused();
    await page.keyboard.press('Enter');
    // Escape closes the question from the button that opened it too.
    await cancel.focus();
    await page.keyboard.press('Escape');
    await expect(question).toHaveCount(0);
    await cancel.click();
    await question.getByRole('button', { name: 'Keep it' }).click();
    await expect(cancel).toBeFocused();
    expect((await (await page.request.get(`/api/events/${id}`)).json()).ticketsAvailable).toBe(2);

    await cancel.click();
    await question.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect(page).toHaveURL(new RegExp(`/event-details/${id}$`));
    await expect(page.getByText('Reservation cancelled. Its tickets went back on sale.')).toBeVisible();
    expect((await (await page.request.get(`/api/events/${id}`)).json()).ticketsAvailable).toBe(4);
    expect(await (await page.request.get(`/api/bookings/${bookingId}`)).json()).toMatchObject({ status: 'cancelled' });
    // The payment page's address from the history says the reservation is over.
    await page.goto(`/payment?booking=${bookingId}`);
    await expect(page.getByRole('heading', { name: 'This reservation is no longer active' })).toBeVisible();
    await expect(page.getByText('You cancelled this reservation. Its tickets went back on sale.')).toBeVisible();
    // The ticket page starts afresh: nothing is held.
    await page.getByRole('link', { name: 'Choose tickets' }).click();
    await expect(page.getByText('4 tickets left', { exact: true })).toBeVisible();
  });
});

test('cancelling a reservation another tab has replaced says it is over and leaves the newer one held', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Two Tabs' }, async (id) => {
    await reserveOnTicketPage(page, id);
    // The buyer opens the question (the page has read its booking, still pending)...
    await page.getByRole('button', { name: 'Cancel reservation' }).click();
    const confirmCancel = page.getByRole('button', { name: 'Yes, cancel' });
    await expect(confirmCancel).toBeVisible();
    // ...while another tab reserves 3 instead: that reservation replaces this page's.
    const newer = await (await page.request.post('/api/bookings', { data: { eventId: id, quantity: 3 } })).json();
    await confirmCancel.click();
    await expect(page.getByRole('heading', { name: 'This reservation is no longer active' })).toBeVisible();
    // Told why, from the booking's endedReason: the newer reservation holds the tickets.
    await expect(page.getByText(payment.holdReplaced)).toBeVisible();
    await expect(page.getByText('Reservation cancelled. Its tickets went back on sale.')).toHaveCount(0);
    await expect(page).toHaveURL(/\/payment\?booking=/);
    expect(await (await page.request.get(`/api/bookings/${newer.id}`)).json()).toMatchObject({ status: 'pending' });
    expect((await (await page.request.get(`/api/events/${id}`)).json()).ticketsAvailable).toBe(2);
  });
});

test('a reservation cannot be cancelled while its payment is being sent', async ({ page, browser, baseURL }) => {
  await withOwnEvent(browser, baseURL, { title: 'Paying Now' }, async (id) => {
    await reserveOnTicketPage(page, id);
    const cancel = page.getByRole('button', { name: 'Cancel reservation' });
    await cancel.click();
    const confirmCancel = page.getByRole('button', { name: 'Yes, cancel' });
    await expect(confirmCancel).toBeEnabled();
    const release = await holdRequests(page, '**/api/payments/simulated/confirm');
    await payWith(page, '4242 4242 4242 4242');
    await expect(page.getByRole('button', { name: 'Processing ...' })).toBeVisible();
    await expect(cancel).toBeDisabled();
    await expect(confirmCancel).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/payment-success\?booking=/);
    await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  });
});

test('a payment configuration that cannot be loaded ends on the failure page and gives the tickets back', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Config Down', tickets: '3' }, async (id) => {
    await page.route('**/api/payments/config', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto(`/event-details/${id}/get-ticket`);
    const reserved = page.waitForResponse((answer) => answer.url().endsWith('/api/bookings'));
    await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
    const bookingId = (await (await reserved).json()).id;
    await expect(page.getByRole('heading', { name: 'Something Went Wrong' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/payment-failed\\?event=${id}$`));
    await expect
      .poll(async () => (await (await page.request.get(`/api/events/${id}`)).json()).ticketsAvailable)
      .toBe(3);
    expect(await (await page.request.get(`/api/me/holds/${id}`)).json()).toEqual({ hold: null });
    const booking = await (await page.request.get(`/api/bookings/${bookingId}`)).json();
    expect(booking).toMatchObject({ status: 'cancelled' });
  });
});

test('a reservation that ends while the buyer types the card moves the focus to the message, which is announced', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Hold Ends' }, async (id) => {
    await page.clock.install();
    await reserveOnTicketPage(page, id);
    const card = page.getByLabel('Card number');
    await card.fill('4242 4242');
    await expect(card).toBeFocused();

    // The server ends the reservation (reserving again replaces it), and the countdown runs out.
    const again = await page.request.post('/api/bookings', {
      data: { eventId: id, quantity: 1 },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(again.status()).toBe(201);
    await page.clock.fastForward('11:00');

    const heading = page.getByRole('heading', { name: 'This reservation is no longer active' });
    await expect(heading).toBeFocused();
    await expect(page.getByRole('alert')).toContainText('This reservation is no longer active');
    await expect(page.getByRole('alert')).toContainText('Hold Ends');
    await expect(page.getByRole('link', { name: 'Choose tickets' })).toBeVisible();
    await page.getByRole('link', { name: 'Browse events' }).click();
    await expect(page).toHaveURL(/\/events-page\/all$/);
  });
});

/**
 * Runs `use` while the event `busyId` has an on-sale's stream of changes: the signed-in user of `page`
 * reserves it every 100 ms (each reservation replacing the last), so the live stream never pauses.
 */
async function duringOnSale(page: Page, busyId: string, use: () => Promise<void>): Promise<void> {
  let busy = true;
  const onSale = (async () => {
    for (let quantity = 1; busy; quantity = (quantity % 3) + 1) {
      await page.request.post('/api/bookings', { data: { eventId: busyId, quantity } });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    // The page's live stream is open (it opens once the page has settled) and hears the on-sale.
    await page.waitForTimeout(2_500);
    await use();
  } finally {
    busy = false;
    await onSale;
  }
}

test('an event deleted during a busy on-sale of another event ends its payment page at once', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Busy Elsewhere' }, async (busyId) => {
    const { admin, id: goneId } = await createOwnEvent(browser, baseURL, { title: 'Gone Quietly' });
    try {
      await reserveOnTicketPage(page, goneId);
      await expect(page.getByLabel('Card number')).toBeVisible();
      await duringOnSale(page, busyId, async () => {
        expect((await admin.request.delete(`/api/admin/events/${goneId}`)).status()).toBe(204);
        await expect(page.getByRole('heading', { name: 'This reservation is no longer active' })).toBeVisible({
          timeout: 4_000,
        });
        await expect(page.getByRole('alert')).toContainText('This event is no longer available.');
      });
    } finally {
      await admin.close();
    }
  });
});

test('an event edited during a busy on-sale of another event shows its change within seconds', async ({
  page,
  browser,
  baseURL,
}) => {
  await withOwnEvent(browser, baseURL, { title: 'Busy Meanwhile' }, async (busyId) => {
    const { items } = (await (await page.request.get('/api/events')).json()) as EventsPage;
    const fields = {
      eventDate: addDays(todayIn('Africa/Cairo'), 200),
      imageUrl: items[0]?.imageUrl,
      title: `Repriced ${Date.now().toString(36)}`,
    };
    await withOwnEvent(browser, baseURL, fields, async (editedId) => {
      await page.goto(`/event-details/${editedId}`);
      const book = page.getByRole('complementary');
      await expect(book.getByRole('link', { name: '10 EGP' })).toBeVisible();
      const admin = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
      const { title } = (await (await admin.request.get(`/api/admin/events/${editedId}`)).json()) as { title: string };
      await duringOnSale(page, busyId, async () => {
        const edited = await admin.request.put(`/api/admin/events/${editedId}`, {
          data: eventForm({ ...fields, title, price: '25' }),
        });
        expect(edited.status()).toBe(200);
        // The on-sale's changes never pause, yet the page refetches at least every 5 seconds.
        await expect(book.getByRole('link', { name: '25 EGP' })).toBeVisible({ timeout: 8_000 });
      });
      await admin.close();
    });
  });
});

test('an event deleted while the buyer is on the payment page ends the payment there, with no tickets to choose', async ({
  page,
  browser,
  baseURL,
}) => {
  const { admin, id } = await createOwnEvent(browser, baseURL, { title: 'Deleted Meanwhile' });
  try {
    await reserveOnTicketPage(page, id);
    // A declined card first: the ended page must not show that old message.
    await payWith(page, '4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    expect((await admin.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);

    // The live stream tells the page; nobody reloads it.
    const heading = page.getByRole('heading', { name: 'This reservation is no longer active' });
    await expect(heading).toBeFocused();
    await expect(page.getByRole('alert')).toContainText('This event is no longer available.');
    await expect(page.getByRole('alert')).not.toContainText('refunded');
    await expect(page.getByRole('alert')).not.toContainText('declined');
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Choose tickets' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Browse events' }).click();
    await expect(page).toHaveURL(/\/events-page\/all$/);
  } finally {
    await admin.close();
  }
});

test('when the session has ended, Pay sends the buyer to sign in and then back to the same payment', async ({
  page,
}) => {
  await openTicketSelection(page);
  // The card form shows from the reservation just made, and the page then asks for it again: that answer is
  // awaited, so the session ends while the buyer types and not while the page is still loading.
  const reread = page.waitForResponse(
    (response) => /\/api\/bookings\/[0-9a-f-]{36}$/.test(response.url()) && response.request().method() === 'GET',
  );
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
  const payment = new URL(page.url());
  await expect(page.getByLabel('Card number')).toBeVisible();
  expect((await reread).status()).toBe(200);
  await page.context().clearCookies();

  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(loginFor(`${payment.pathname}${payment.search}`));
  await expect(page.getByText('Your session has ended. Sign in again.')).toBeVisible();
  await expect(page.getByText('Something went wrong, try again later')).toHaveCount(0);

  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel('Password', { exact: true }).fill(USER.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(payment.href);
  await expect(page.getByLabel('Card number')).toBeVisible();
});

test('when the session has ended, the ticket page sends the user to sign in instead of an error', async ({ page }) => {
  await page.goto('/events-page/all');
  await page.locator('a[href^="/event-details/"]').first().click();
  await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
  const ticketPage = `${new URL(page.url()).pathname}/get-ticket`;
  await page.context().clearCookies();
  await page.locator('a[href$="/get-ticket"]').first().click();
  await expect(page).toHaveURL(loginFor(ticketPage));
  await expect(page.getByText('Your session has ended. Sign in again.')).toBeVisible();
});

/** Answers 500 to requests matching `pattern` until the returned function is called. */
async function failRequests(page: Page, pattern: string | RegExp): Promise<() => void> {
  let failing = true;
  await page.route(pattern, (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/problem+json',
          body: '{"status":500,"code":"INTERNAL"}',
        })
      : route.continue(),
  );
  return () => {
    failing = false;
  };
}

test('a ticket page that cannot load offers to try again and the way back to the event', async ({ page }) => {
  await page.goto('/events-page/all');
  const href = (await page.locator('a[href^="/event-details/"]').first().getAttribute('href')) ?? '';
  const recover = await failRequests(page, `**/api/events/${href.split('/').at(-1)}`);
  await page.goto(`${href}/get-ticket`);
  await expect(page.getByRole('alert')).toHaveText('Something went wrong, try again later');
  await expect(page.getByRole('link', { name: 'Back To Event' })).toHaveAttribute('href', href);
  recover();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: /^Proceed to Pay/ })).toBeVisible();
});

test('a payment page that cannot load offers to try again and a way out', async ({ page }) => {
  await openTicketSelection(page);
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
  const recover = await failRequests(page, /\/api\/bookings\/[0-9a-f-]{36}$/);
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('Something went wrong, try again later');
  await expect(page.getByRole('link', { name: 'Browse events' })).toHaveAttribute('href', '/events-page/all');
  recover();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByLabel('Card number')).toBeVisible();
});

test('Your Bookings that cannot load offers to try again and a way out', async ({ page }) => {
  const recover = await failRequests(page, '**/api/me/bookings');
  await page.goto('/profile');
  await expect(page.getByRole('alert')).toHaveText('Something went wrong, try again later');
  await expect(page.getByRole('link', { name: 'Browse events' })).toHaveAttribute('href', '/events-page/all');
  recover();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('region', { name: 'Your Tickets' })).toBeVisible();
});

test('with no tickets yet, the way to the events is inside the Your Tickets card', async ({ page, baseURL }) => {
  // A new account of its own: the shared user has tickets by now.
  await page.context().clearCookies();
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: baseURL as string },
    data: {
      name: 'Nour Adel',
      firstName: 'Nour',
      lastName: 'Adel',
      email: `no-tickets-${Date.now()}@eventry.test`,
      password: 'Visitor123',
    },
  });
  expect(signUp.ok()).toBe(true);
  await page.goto('/profile');
  const tickets = page.getByRole('region', { name: 'Your Tickets' });
  await expect(tickets.getByText('No tickets yet.')).toBeVisible();
  await expect(tickets.getByRole('link', { name: 'Browse events' })).toHaveAttribute('href', '/events-page/all');
  await expect(page.getByRole('link', { name: 'Browse events' })).toHaveCount(1);
});
