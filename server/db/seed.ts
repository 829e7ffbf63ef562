import { and, count, eq, like, sql } from 'drizzle-orm';
import { DEFAULT_CATEGORY_ID } from '../../contracts/constants';
import { addDays, todayIn } from '../../contracts/dates';
import type { Auth } from '../plugins/auth';
import type { Storage } from '../plugins/storage';
import type { Db } from './client';
import { categories, events, users } from './schema';

export const CATEGORIES = [
  { id: 'music', name: 'Music', position: 1 },
  { id: 'sports', name: 'Sports', position: 2 },
  { id: 'technology', name: 'Technology', position: 3 },
  { id: 'arts', name: 'Arts', position: 4 },
  { id: 'food', name: 'Food & Drink', position: 5 },
  { id: 'business', name: 'Business', position: 6 },
  { id: DEFAULT_CATEGORY_ID, name: 'Other', position: 7 },
] as const;

/** Categories are reference data: present in every database. */
export async function seedCategories(db: Db): Promise<void> {
  await db
    .insert(categories)
    .values([...CATEGORIES])
    .onConflictDoNothing();
}

const DEMO: Array<
  [title: string, category: string, host: string, location: string, price: number, from: string, to: string]
> = [
  ['Cairo Jazz Night', 'music', 'Cairo Jazz Club', 'Zamalek, Cairo', 350, '#0f766e', '#1e1b4b'],
  ['Nile Sunset Sessions', 'music', 'Sound Collective', 'Corniche, Maadi', 250, '#f97316', '#7c2d12'],
  ['Oud & Strings Evening', 'music', 'Makan Center', 'Downtown Cairo', 180, '#a16207', '#1c1917'],
  ['Electronic Dunes Festival', 'music', 'Desert Beats', 'Sahl Hasheesh, Hurghada', 900, '#7c3aed', '#0f172a'],
  ['Alexandria Indie Live', 'music', 'Bibliotheca Stage', 'Alexandria', 220, '#0ea5e9', '#172554'],
  ['Cairo Marathon 10K', 'sports', 'Run Egypt', 'New Capital', 150, '#16a34a', '#052e16'],
  ['Pyramids Half Marathon', 'sports', 'Run Egypt', 'Giza Plateau', 400, '#ca8a04', '#422006'],
  ['Red Sea Diving Day', 'sports', 'Blue Hole Divers', 'Dahab', 1200, '#0891b2', '#083344'],
  ['Padel Open Cup', 'sports', 'Padel Club Egypt', 'Sheikh Zayed', 300, '#65a30d', '#1a2e05'],
  ['Frontend Cairo Meetup', 'technology', 'Cairo Devs', 'GrEEK Campus, Downtown', 100, '#14b8a6', '#0f172a'],
  ['AI in Healthcare Summit', 'technology', 'HealthTech MENA', 'Smart Village, Giza', 750, '#2563eb', '#0c0a09'],
  ['Cloud Native Day', 'technology', 'CNCF Egypt', 'Nile Ritz-Carlton, Cairo', 500, '#0284c7', '#1e293b'],
  ['Startup Pitch Night', 'technology', 'Flat6Labs', 'Zamalek, Cairo', 80, '#db2777', '#1e1b4b'],
  ['Contemporary Art Walk', 'arts', 'Townhouse Gallery', 'Downtown Cairo', 120, '#e11d48', '#3f0d12'],
  ['Photography Masterclass', 'arts', 'Lens Studio', 'Heliopolis', 450, '#9333ea', '#2e1065'],
  ['Theatre: The Last Pharaoh', 'arts', 'El Sawy Culturewheel', 'Zamalek, Cairo', 200, '#b45309', '#1c1917'],
  ['Calligraphy Workshop', 'arts', 'Khatt Studio', 'Islamic Cairo', 160, '#0d9488', '#042f2e'],
  ['Egyptian Street Food Tour', 'food', 'Taste of Cairo', 'Downtown Cairo', 280, '#ea580c', '#431407'],
  ['Coffee Cupping Session', 'food', 'Brew Lab', 'New Cairo', 140, '#92400e', '#1c1917'],
  ['Mediterranean Seafood Feast', 'food', 'Alex Kitchens', 'Alexandria', 650, '#0369a1', '#082f49'],
  ['Women in Business Forum', 'business', 'SheLeads', 'Four Seasons, Giza', 600, '#c026d3', '#2e1065'],
  ['E-commerce Growth Bootcamp', 'business', 'Sell Smart', 'Maadi', 350, '#059669', '#022c22'],
  ['Investor Breakfast', 'business', 'Cairo Angels', 'Garden City', 500, '#4f46e5', '#1e1b4b'],
  ['Community Book Swap', 'other', 'Read Cairo', 'Al-Azhar Park', 50, '#84cc16', '#1a2e05'],
  ['Stargazing in the White Desert', 'other', 'Desert Nights', 'Farafra', 1500, '#1d4ed8', '#020617'],
  ['Family Fun Day', 'other', 'Happy Days', 'Family Park, New Cairo', 90, '#f59e0b', '#451a03'],
];

const TIMES: Array<[string, string]> = [
  ['19:00', '22:00'],
  ['18:30', '21:30'],
  ['10:00', '14:00'],
  ['20:00', '23:30'],
  ['09:00', '17:00'],
  ['16:00', '19:00'],
];

/**
 * A 1200×675 gradient with soft circles: a real, small image for each demo event. Nothing in it looks like
 * text or a control: pages lay titles, dates and chips over the picture's lower part.
 */
function demoSvg(index: number, from: string, to: string): string {
  const cx = 200 + ((index * 137) % 800);
  const cy = 120 + ((index * 89) % 400);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="1200" height="675" fill="url(#g)"/>
  <circle cx="${cx}" cy="${cy}" r="260" fill="#ffffff" fill-opacity="0.08"/>
  <circle cx="${1200 - cx}" cy="${675 - cy}" r="180" fill="#ffffff" fill-opacity="0.06"/>
</svg>`;
}

const PLACEHOLDER_PREFIX = 'data:image/svg+xml,';
const PLACEHOLDER_INDEX = /data-demo%3D%22(\d+)%22/;

/**
 * The stand-in picture of demo event `index` until its real image is written: the same gradient as a
 * data: URL (the CSP allows data: images), so a first start can answer at once and render the pictures after.
 */
export function demoPlaceholderUrl(index: number): string {
  const [, , , , , from, to] = DEMO[index % DEMO.length] as (typeof DEMO)[number];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" data-demo="${index}" viewBox="0 0 16 9"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="16" height="9" fill="url(#g)"/></svg>`;
  return `${PLACEHOLDER_PREFIX}${encodeURIComponent(svg)}`;
}

/**
 * Demo catalogue for a new installation: only when no event exists yet. The events are inserted at once with
 * placeholder pictures; `writeDemoImages` renders the real ones afterwards (it takes a few seconds).
 */
export async function seedDemoEvents(db: Db, timeZone: string): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(events);
  if ((existing?.n ?? 0) > 0) return 0;
  const today = todayIn(timeZone);
  const rows: Array<typeof events.$inferInsert> = DEMO.map(([title, categoryId, host, location, price], i) => {
    const eventDate = addDays(today, 2 + i * 2 + (i % 3));
    const [startTime, endTime] = TIMES[i % TIMES.length] as [string, string];
    const capacity = 50 + ((i * 37) % 250);
    return {
      title,
      host,
      location,
      description: `${title} by ${host}. Join us at ${location} for an unforgettable experience. Doors open 30 minutes before the start; bring your ticket on your phone. Seats are limited, so book early.`,
      pricePiasters: price * 100,
      capacity,
      ticketsAvailable: capacity,
      startDate: today,
      endDate: eventDate,
      eventDate,
      startTime,
      endTime,
      imageUrl: demoPlaceholderUrl(i),
      categoryId,
    };
  });
  await db.insert(events).values(rows);
  return rows.length;
}

/**
 * Replaces every demo placeholder picture by its real image, one at a time (rendering them all at once would
 * double the server's peak memory). Run in the background after start-up; an interrupted run (stop, crash)
 * is finished by the next start. Stops early when `signal` aborts. Returns how many images were written.
 */
export async function writeDemoImages(db: Db, storage: Storage, signal?: AbortSignal): Promise<number> {
  const pending = await db
    .select({ id: events.id, imageUrl: events.imageUrl })
    .from(events)
    .where(like(events.imageUrl, `${PLACEHOLDER_PREFIX}%`));
  if (pending.length === 0) return 0;
  // sharp is only needed here (and for uploads): not loaded at all by a start that has nothing to render.
  const { default: sharp } = await import('sharp');
  let written = 0;
  for (const { id, imageUrl } of pending) {
    if (signal?.aborted) break;
    const index = Number(PLACEHOLDER_INDEX.exec(imageUrl)?.[1] ?? written) % DEMO.length;
    const [, , , , , from, to] = DEMO[index] as (typeof DEMO)[number];
    const png = await sharp(Buffer.from(demoSvg(index, from, to)))
      .png()
      .toBuffer();
    if (signal?.aborted) break;
    const image = await storage.saveImage('eventImg', png);
    // Only if nobody replaced the placeholder meanwhile (an admin edit); otherwise the file is not needed.
    const updated = await db
      .update(events)
      .set({ imageUrl: image.url, version: sql`${events.version} + 1` })
      .where(and(eq(events.id, id), eq(events.imageUrl, imageUrl)))
      .returning({ id: events.id });
    if (updated.length === 0) await storage.remove(image.url);
    else written++;
  }
  return written;
}

/**
 * ADMIN_EMAIL + ADMIN_PASSWORD: create that admin when missing, or promote the account that has the address.
 * The operator vouches for the address, so the admin is verified and no welcome or verification email is
 * sent: the account is written the way better-auth's sign-up writes one (the user, then its credential
 * account with the hashed password), without the sign-up's email.
 *
 * An existing account whose address was never verified may be a stranger's, made with the operator's
 * address before the operator configured it: it takes ADMIN_PASSWORD and loses its sessions before it is
 * promoted. A verified account keeps its password (its owner proved the address). An account left without
 * a password (a start that stopped between the two writes) gets ADMIN_PASSWORD.
 */
export async function ensureAdmin(db: Db, auth: Auth, admin: { email: string; password: string }): Promise<void> {
  const email = admin.email.toLowerCase();
  const context = await auth.$context;
  const [found] = await db
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.email, email));
  const userId =
    found?.id ??
    (
      await context.internalAdapter.createUser(
        { email, name: 'Eventry Admin', firstName: 'Eventry', lastName: 'Admin', emailVerified: true },
        { method: 'email-password' },
      )
    ).id;
  const accounts = await context.internalAdapter.findAccounts(userId);
  if (!accounts.some((account) => account.providerId === 'credential')) {
    const hash = await context.password.hash(admin.password);
    await context.internalAdapter.linkAccount({ userId, providerId: 'credential', accountId: userId, password: hash });
  } else if (found && !found.emailVerified) {
    await context.internalAdapter.updatePassword(userId, await context.password.hash(admin.password));
    await context.internalAdapter.deleteUserSessions(userId);
  }
  await db.update(users).set({ role: 'admin', emailVerified: true }).where(eq(users.id, userId));
}
