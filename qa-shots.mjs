import { chromium, request } from '@playwright/test';
const base = 'http://127.0.0.1:3950';
const out = '/tmp/qa';
const headers = { origin: base };
const api = await request.newContext({ baseURL: base, extraHTTPHeaders: headers });
const email = `qa-${Date.now()}@example.com`;
let r = await api.post('/api/auth/sign-up/email', { data: { firstName: 'Layla', lastName: 'Mansour', email, password: 'Secret123' } });
console.log('signup', r.status());
const events = (await (await api.get('/api/events')).json()).items;
const event = events[0];
r = await api.post('/api/bookings', { data: { eventId: event.id, quantity: 2 } });
const booking = await r.json();
r = await api.post('/api/payments/simulated/confirm', { data: { bookingId: booking.id, cardNumber: '4242424242424242', expMonth: 12, expYear: 30, cvc: '123' } });
console.log('paid', r.status());
const userState = await api.storageState();
const adminApi = await request.newContext({ baseURL: base, extraHTTPHeaders: headers });
r = await adminApi.post('/api/auth/sign-in/email', { data: { email: 'admin@eventry.test', password: 'Admin123' } });
console.log('admin', r.status());
const tickets = (await (await api.get('/api/me/tickets')).json()).items;
r = await adminApi.post('/api/check-in', { data: { eventId: event.id, code: tickets[0].code } });
console.log('checkin', r.status(), JSON.stringify(await r.json()));
const adminState = await adminApi.storageState();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const shots = [
  ['user', '/profile', 'profile'],
  ['admin', '/admin', 'admin-list'],
  ['admin', '/admin/check-in', 'check-in-list'],
  ['admin', `/admin/event/${event.id}/check-in`, 'scanner'],
  ['admin', `/admin/event/${event.id}/attendees`, 'attendees'],
  ['admin', `/admin/event/${event.id}/door-staff`, 'door-staff'],
];
for (const width of [390, 1280]) {
  for (const [who, path, name] of shots) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, storageState: who === 'user' ? userState : adminState });
    const page = await ctx.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(base + path);
    await page.waitForTimeout(2500);
    if (name === 'scanner') {
      await page.getByLabel('Ticket code').fill(tickets[1].code);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/${name}-result-${width}.png` });
      await page.waitForTimeout(1500);
    }
    await page.screenshot({ path: `${out}/${name}-${width}.png`, fullPage: name !== 'scanner' });
    console.log(width, name, page.url(), errors.join(' | '));
    await ctx.close();
  }
}
await browser.close();
