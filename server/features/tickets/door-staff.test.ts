import { afterAll, describe, expect, it } from 'vitest';
import type { DoorStaffList } from '../../../contracts/door-staff';
import { runDoorStaffCommand } from '../../cli/admin';
import { createTestEvent } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());

const admin = await ctx.createUser({ role: 'admin' });

function grant(as: TestUser | undefined, eventId: string, email: string) {
  return ctx.request(as, { method: 'POST', url: `/api/admin/events/${eventId}/door-staff`, payload: { email } });
}
function list(as: TestUser | undefined, eventId: string) {
  return ctx.request(as, { method: 'GET', url: `/api/admin/events/${eventId}/door-staff` });
}
function revoke(as: TestUser | undefined, eventId: string, userId: string) {
  return ctx.request(as, { method: 'DELETE', url: `/api/admin/events/${eventId}/door-staff/${userId}` });
}
async function me(user: TestUser) {
  const res = await ctx.request(user, { method: 'GET', url: '/api/me' });
  expect(res.statusCode).toBe(200);
  return res.json() as { doorStaff: boolean; role: string };
}
function checkIn(user: TestUser, eventId: string) {
  return ctx.request(user, { method: 'POST', url: '/api/check-in', payload: { eventId, code: 'AAAAAAAAAA' } });
}

describe('door staff, granted by an admin', () => {
  it('grants by email, lists with name and email, and revokes; the user may check in only meanwhile', async () => {
    const event = await createTestEvent(pool);
    const staff = await ctx.createUser({ firstName: 'Mona', lastName: 'Adel' });
    expect((await me(staff)).doorStaff).toBe(false);
    expect((await checkIn(staff, event.id)).statusCode).toBe(403);

    const granted = await grant(admin, event.id, staff.email.toUpperCase());
    expect(granted.statusCode).toBe(200);
    const items = (granted.json() as DoorStaffList).items;
    expect(items.map(({ userId, name, email }) => ({ userId, name, email }))).toEqual([
      { userId: staff.id, name: 'Mona Adel', email: staff.email },
    ]);
    // Granting again changes nothing.
    expect((await grant(admin, event.id, staff.email)).json().items).toHaveLength(1);
    expect((await list(admin, event.id)).json().items).toHaveLength(1);

    const after = await me(staff);
    expect(after).toMatchObject({ doorStaff: true, role: 'user' });
    expect((await checkIn(staff, event.id)).json()).toEqual({ outcome: 'unknown' });
    // Nothing else of the admin area.
    expect((await list(staff, event.id)).statusCode).toBe(403);
    expect((await ctx.request(staff, { method: 'GET', url: '/api/admin/events' })).statusCode).toBe(403);

    expect((await revoke(admin, event.id, staff.id)).statusCode).toBe(204);
    expect((await list(admin, event.id)).json().items).toEqual([]);
    expect((await me(staff)).doorStaff).toBe(false);
    expect((await checkIn(staff, event.id)).statusCode).toBe(403);
    expect((await revoke(admin, event.id, staff.id)).statusCode).toBe(404);
  });

  it('answers an unknown email, an unknown event and bad input with a clear 4xx', async () => {
    const event = await createTestEvent(pool);
    const unknownEmail = await grant(admin, event.id, 'nobody@example.com');
    expect(unknownEmail.statusCode).toBe(400);
    expect(unknownEmail.json().errors).toEqual({ email: 'No account has this email. Ask them to sign up first.' });
    expect((await grant(admin, event.id, '')).statusCode).toBe(400);
    expect((await grant(admin, '00000000-0000-4000-8000-000000000000', admin.email)).statusCode).toBe(404);
    expect((await list(admin, 'not-an-id')).statusCode).toBe(404);
    expect((await revoke(admin, event.id, 'nobody')).statusCode).toBe(404);
  });

  it("answers in the request's language", async () => {
    const event = await createTestEvent(pool);
    const inArabic = (url: string, payload?: Record<string, unknown>) =>
      ctx.request(admin, {
        method: payload ? 'POST' : 'DELETE',
        url,
        payload,
        headers: { 'accept-language': 'ar' },
      });
    const base = `/api/admin/events/${event.id}/door-staff`;
    expect((await inArabic(base, { email: 'nobody@example.com' })).json()).toMatchObject({
      detail: 'لا يوجد حساب بهذا البريد الإلكتروني. اطلب من صاحبه إنشاء حساب أولًا.',
      errors: { email: 'لا يوجد حساب بهذا البريد الإلكتروني. اطلب من صاحبه إنشاء حساب أولًا.' },
    });
    expect((await inArabic(base, { email: ' ' })).json().errors).toEqual({ email: 'أدخل عنوان بريد إلكتروني' });
    expect((await inArabic(`${base}/${admin.id}`)).json()).toMatchObject({
      code: 'DOOR_STAFF_NOT_FOUND',
      detail: 'هذا الشخص ليس ضمن فريق البوابة لهذه الفعالية.',
    });
  });

  it('is for admins only', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    expect((await list(undefined, event.id)).statusCode).toBe(401);
    expect((await grant(user, event.id, user.email)).statusCode).toBe(403);
    expect((await revoke(user, event.id, user.id)).statusCode).toBe(403);
    expect((await list(admin, event.id)).json().items).toEqual([]);
  });

  it('a deleted event keeps no door: /api/me stops saying so', async () => {
    const event = await createTestEvent(pool);
    const staff = await ctx.createUser();
    await grant(admin, event.id, staff.email);
    expect((await me(staff)).doorStaff).toBe(true);
    expect((await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` })).statusCode).toBe(204);
    expect((await me(staff)).doorStaff).toBe(false);
  });
});

describe('npm run admin -- door-staff', () => {
  it('grants, lists and revokes by email and event id', async () => {
    const event = await createTestEvent(pool);
    const staff = await ctx.createUser({ firstName: 'Karim', lastName: 'Nabil' });
    expect(await runDoorStaffCommand(ctx.database, ['grant', staff.email, event.id])).toEqual({
      code: 0,
      message: `${staff.email} may now check tickets in at event ${event.id}.`,
    });
    expect((await me(staff)).doorStaff).toBe(true);
    const listed = await runDoorStaffCommand(ctx.database, ['list', event.id]);
    expect(listed.code).toBe(0);
    expect(listed.message).toContain(`${staff.email}\tKarim Nabil`);
    expect((await runDoorStaffCommand(ctx.database, ['revoke', staff.email, event.id])).code).toBe(0);
    expect((await me(staff)).doorStaff).toBe(false);
    expect(await runDoorStaffCommand(ctx.database, ['list', event.id])).toEqual({
      code: 0,
      message: `Nobody is on the door staff of event ${event.id}.`,
    });
  });

  it('says what is wrong: an unknown email or event, a revoke of someone not there, bad usage', async () => {
    const event = await createTestEvent(pool);
    expect(await runDoorStaffCommand(ctx.database, ['grant', 'nobody@example.com', event.id])).toEqual({
      code: 1,
      message: 'No account has this email. Ask them to sign up first.',
    });
    expect((await runDoorStaffCommand(ctx.database, ['grant', admin.email, 'nope'])).message).toBe(
      'This event does not exist or was deleted.',
    );
    expect((await runDoorStaffCommand(ctx.database, ['revoke', admin.email, event.id])).code).toBe(1);
    expect((await runDoorStaffCommand(ctx.database, ['grant', admin.email])).code).toBe(2);
    expect((await runDoorStaffCommand(ctx.database, [])).code).toBe(2);
  });
});
