import { payWithTestCard, USER, USER_STATE, waitForMail } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/**
 * When plans change (issue 36): the buyer cancels from Your Tickets and finds the refund under Your History, the
 * organiser refunds from the attendees page, and cancels an event, whose page then says so.
 */

test.use({ storageState: USER_STATE });

async function buyWithTestCard(page: Page, eventId: string, quantity: number) {
  await page.goto(`/event-details/${eventId}/get-ticket`);
  for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'Increase quantity' }).click();
  await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\?booking=/);
  await payWithTestCard(page);
}

test('a buyer cancels one ticket, then the rest, and finds the refund under Your History', async ({
  ownEvent,
  page,
}) => {
  const { id, title } = await ownEvent('Refundable gig', {
    tickets: '10',
    days: 120,
    fee: '10',
  });
  await page.goto(`/event-details/${id}`);
  await expect(page.getByTestId('refund-policy')).toHaveText(
    'Refunds: cancel up to 48 hours before the start and get your money back, less a 10% fee.',
  );
  await buyWithTestCard(page, id, 2);

  await page.goto('/profile');
  const tickets = page.getByRole('region', { name: 'Your Tickets' });
  const card = tickets.locator('article, li, section').filter({ hasText: title }).first();
  await expect(card.getByText(/^Refundable until \d\d:\d\d [AP]M on /)).toBeVisible();
  await card.getByRole('button', { name: 'Cancel booking' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel booking' });
  await expect(dialog.getByText('You will get back 270 EGP, after a 30 EGP cancellation fee.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(dialog.getByText('You will get back 135 EGP, after a 15 EGP cancellation fee.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel 1 ticket' }).click();
  await expect(page.getByText('1 ticket cancelled: 135 EGP refunded')).toBeVisible();
  await expect(card.getByText('Refunded 135 EGP')).toBeVisible();

  await card.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByRole('dialog', { name: 'Cancel booking' }).getByRole('button', { name: 'Cancel 1 ticket' }).click();
  const history = page.getByRole('region', { name: 'Your History' });
  await expect(history.getByText(title)).toBeVisible();
  await expect(history.getByText('Refunded 270 EGP')).toBeVisible();
  await expect(tickets.getByText(title)).toHaveCount(0);

  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mail = await waitForMail(USER.email, new RegExp(`^Eventry: your refund for ${escaped}$`));
  expect(mail.text).toMatch(/You cancelled 1 ticket for .* We have refunded 135 EGP\./);
});

test('an event starting within its refund window says, on its page and its ticket page, that the time to cancel has passed', async ({
  ownEvent,
  page,
  baseURL,
}) => {
  // Tomorrow at 10:00 in Cairo, with the default policy (48 hours before the start): its window has closed.
  const event = await ownEvent('Too late to cancel', { tickets: '10', days: 1 });
  try {
    const closed = 'Refunds: the time to cancel before the start has passed, so tickets can no longer be refunded.';
    await page.goto(`/event-details/${event.id}`);
    await expect(page.getByTestId('refund-policy')).toHaveText(closed);
    await page.goto(`/event-details/${event.id}/get-ticket`);
    await expect(page.getByTestId('refund-policy')).toHaveText(closed);
    await page.context().addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? '' }]);
    await page.reload();
    await expect(page.getByTestId('refund-policy')).toHaveText(
      'الاسترداد: انتهت مهلة الإلغاء قبل بدء الفعالية، فلم يعد استرداد قيمة التذاكر ممكنًا.',
    );
  } finally {
    await page.context().clearCookies({ name: 'lang' });
  }
});

test('the organiser refunds a booking from the attendees page, and cancels the event', async ({ ownEvent, page }) => {
  const { admin, id, title } = await ownEvent('Called off', { tickets: '10', days: 120 });
  const adminPage = await admin.newPage();
  await buyWithTestCard(page, id, 1);
  await adminPage.goto(`/admin/event/${id}/attendees`);
  await adminPage.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Refund booking' });
  await expect(
    dialog.getByText(`Refund the whole booking: 150 EGP to ${USER.firstName} ${USER.lastName}?`),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Refund booking' }).click();
  await expect(adminPage.getByText(`Refunded 150 EGP to ${USER.firstName} ${USER.lastName}`)).toBeVisible();
  await expect(adminPage.getByRole('table').getByText('Void')).toBeVisible();

  // A second booking, then the whole event is called off.
  await buyWithTestCard(page, id, 2);
  await adminPage.goto('/admin');
  await adminPage.getByLabel('Search events by title').fill(title);
  await adminPage.getByRole('button', { name: `Cancel event ${title}` }).click();
  await adminPage
    .getByRole('dialog', { name: 'Cancel this event?' })
    .getByRole('button', { name: 'Cancel event' })
    .click();
  await expect(adminPage.getByText('Event cancelled: 1 paid booking is being refunded')).toBeVisible();

  await page.goto(`/event-details/${id}`);
  await expect(page.getByRole('heading', { name: 'This event has been cancelled' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Get Tickets|Book/ })).toHaveCount(0);
  await page.goto('/profile');
  await expect(page.getByRole('region', { name: 'Your History' }).getByText(title).first()).toBeVisible();
});
