import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { titleSearchKey } from './title-search';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

// ---------------------------------------------------------------------------
// Accounts (better-auth). JS keys follow better-auth's field names; columns are snake_case.
// ---------------------------------------------------------------------------

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Profile picture URL (the spec's imgURL); empty means "show the default avatar". */
    image: text('image'),
    /** A picture uploaded on the edit screen but not saved yet (Continue applies it, Cancel leaves it). */
    pendingImage: text('pending_image'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    /**
     * The language the user chose ('en' or 'ar'; contracts/i18n/languages.ts): their emails are written in it, and
     * signing in sets the site's. Null until they choose one or sign up.
     */
    language: text('language', { enum: ['en', 'ar'] }),
    /**
     * An Egyptian mobile number in the form +201XXXXXXXXX, given on the payment page for Paymob (which needs one)
     * and kept for the next time.
     */
    phone: text('phone'),
    ...timestamps,
  },
  (t) => [
    check('users_language_known', sql`${t.language} IN ('en', 'ar')`),
    check('users_phone_egyptian_mobile', sql`${t.phone} ~ '^\\+201[0125][0-9]{8}$'`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('accounts_user_id_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/** better-auth's rate-limit store, shared by every app process. */
export const rateLimits = pgTable('rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

// ---------------------------------------------------------------------------
// Catalogue
// ---------------------------------------------------------------------------

export const categories = pgTable('categories', {
  /** A stable slug such as 'music'; also accepted in /events-page/{category}. */
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  position: integer('position').notNull().default(0),
});

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    host: text('host').notNull(),
    location: text('location').notNull(),
    description: text('description').notNull(),
    /** Integer piasters (1 EGP = 100). */
    pricePiasters: integer('price_piasters').notNull(),
    /** Tickets the admin put on sale. */
    capacity: integer('capacity').notNull(),
    /** Tickets neither held nor sold: capacity = available + held + sold. */
    ticketsAvailable: integer('tickets_available').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    eventDate: date('event_date', { mode: 'string' }).notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    imageUrl: text('image_url').notNull(),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Bumped on every change; drives ETags and optimistic concurrency. */
    version: integer('version').notNull().default(1),
    /** Refund policy (contracts/refunds.ts): buyers may cancel until this many hours before the start; 0: never. */
    refundHoursBefore: integer('refund_hours_before').notNull().default(48),
    /** The percentage kept when a buyer cancels. */
    cancellationFeePercent: integer('cancellation_fee_percent').notNull().default(0),
    /** When the organiser cancelled the event: nothing more is sold, and every paid booking is refunded. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('events_price_positive', sql`${t.pricePiasters} > 0`),
    check('events_refund_hours_range', sql`${t.refundHoursBefore} BETWEEN 0 AND 8760`),
    check('events_cancellation_fee_range', sql`${t.cancellationFeePercent} BETWEEN 0 AND 100`),
    check('events_capacity_positive', sql`${t.capacity} > 0`),
    check('events_available_in_range', sql`${t.ticketsAvailable} >= 0 AND ${t.ticketsAvailable} <= ${t.capacity}`),
    check('events_dates_ordered', sql`${t.startDate} <= ${t.endDate} AND ${t.endDate} <= ${t.eventDate}`),
    index('events_active_order_idx').on(t.isDeleted, t.eventDate, t.startTime),
    index('events_category_idx').on(t.categoryId, t.isDeleted, t.eventDate),
    // Title searches (prefix matches): the expression they compare, from title-search.ts.
    index('events_title_prefix_idx').using('btree', sql`${titleSearchKey(t.title)} text_pattern_ops`),
    index('events_end_date_idx').on(t.endDate).where(sql`${t.isDeleted} = false`),
  ],
);

// ---------------------------------------------------------------------------
// Bookings and payments
// ---------------------------------------------------------------------------

export const bookingStatuses = ['pending', 'paid', 'expired', 'failed', 'refunded', 'cancelled'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];
/** Why a booking that is neither pending nor paid ended (server/features/ticketing/state-machine.ts). */
export const bookingEndReasons = [
  'replaced',
  'cancelled_by_buyer',
  'expired',
  'payment_canceled',
  'event_deleted',
  'refunded_to_buyer',
  'refunded_by_organiser',
  'event_cancelled',
  'offer_declined',
] as const;
export type BookingEndReason = (typeof bookingEndReasons)[number];

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    quantity: integer('quantity').notNull(),
    unitPricePiasters: integer('unit_price_piasters').notNull(),
    totalPiasters: integer('total_piasters').notNull(),
    status: text('status', { enum: bookingStatuses }).notNull().default('pending'),
    /** Until when a pending booking holds its tickets. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    idempotencyKey: text('idempotency_key'),
    /** The provider of the booking's current payment (server/domain/payments.ts); null until one is started. */
    paymentProvider: text('payment_provider', { enum: ['stripe', 'simulated', 'paymob'] }),
    /** The provider's reference of the current payment (Stripe: the PaymentIntent; Paymob: the order). */
    paymentIntentId: text('payment_intent_id'),
    /** How the buyer pays (contracts/bookings.ts paymentMethods): set when a payment is started or taken. */
    paymentMethod: text('payment_method', { enum: ['card', 'wallet', 'cash'] }),
    /** Paymob's kiosk cash: the bill reference the buyer pays against before the hold's end. */
    cashReference: text('cash_reference'),
    /**
     * Tickets of a paid booking given back (contracts/refunds.ts), and the money returned for them: a paid booking
     * has quantity − refunded_quantity valid tickets; one given back whole is refunded.
     */
    refundedQuantity: integer('refunded_quantity').notNull().default(0),
    refundedPiasters: integer('refunded_piasters').notNull().default(0),
    failureMessage: text('failure_message'),
    /**
     * The waitlist entry whose offer this hold is (contracts/waitlist.ts): a pending booking with one is 'offered',
     * not 'held'. No foreign key: checking one would lock the entry's row on every reservation that carries it.
     */
    waitlistEntryId: uuid('waitlist_entry_id'),
    /**
     * The buyer chose again while holding tickets of this event: this hold took the place of their pending one. The
     * dashboard's funnel counts a reservation once, on the day of its first choice (decision 025); set on insert and
     * never changed, so that choosing again changes no closed day's figures (migration 0024).
     */
    replacesHold: boolean('replaces_hold').notNull().default(false),
    /** Set exactly when the booking has ended without being paid (migration 0015). */
    endedReason: text('ended_reason', { enum: bookingEndReasons }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('bookings_quantity_range', sql`${t.quantity} BETWEEN 1 AND 10`),
    check('bookings_total_matches', sql`${t.totalPiasters} = ${t.quantity} * ${t.unitPricePiasters}`),
    check(
      'bookings_ended_reason_known',
      sql`${t.endedReason} IN ('replaced', 'cancelled_by_buyer', 'expired', 'payment_canceled', 'event_deleted', 'refunded_to_buyer', 'refunded_by_organiser', 'event_cancelled', 'offer_declined')`,
    ),
    check('bookings_refunded_quantity_range', sql`${t.refundedQuantity} BETWEEN 0 AND ${t.quantity}`),
    check('bookings_refunded_piasters_range', sql`${t.refundedPiasters} BETWEEN 0 AND ${t.totalPiasters}`),
    check('bookings_payment_provider_known', sql`${t.paymentProvider} IN ('stripe', 'simulated', 'paymob')`),
    check('bookings_payment_method_known', sql`${t.paymentMethod} IN ('card', 'wallet', 'cash')`),
    check('bookings_ended_reason_iff_ended', sql`(${t.status} IN ('pending', 'paid')) = (${t.endedReason} IS NULL)`),
    // Migration 0014: only bookings made with an Idempotency-Key, so that no lookup of a buyer's holds can use
    // it as a list of every booking of theirs.
    uniqueIndex('bookings_user_idempotency_idx')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
    uniqueIndex('bookings_one_pending_per_user_event_idx').on(t.userId, t.eventId).where(sql`${t.status} = 'pending'`),
    // Migration 0011: only a query that names expires_at (the expiry job's `expires_at < now()`) can use this
    // index; see that migration for why.
    index('bookings_pending_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending' AND ${t.expiresAt} IS NOT NULL`),
    // Migration 0006: indexes a reservation does not need stay off the rows it writes (the profile's paid
    // tickets, and payment intents once there is one).
    // Migration 0019: refunded bookings too (Your History lists what was given back).
    index('bookings_user_owned_idx').on(t.userId).where(sql`${t.status} IN ('paid', 'refunded')`),
    // Migration 0018: the Paymob payments the reconciliation job asks about (ticketing/repository.ts
    // findQuietPayments); no other booking has an entry.
    index('bookings_paymob_unsettled_idx')
      .on(t.createdAt)
      .where(sql`${t.paymentProvider} = 'paymob' AND ${t.status} IN ('pending', 'expired', 'cancelled', 'failed')`),
    uniqueIndex('bookings_payment_intent_idx').on(t.paymentIntentId).where(sql`${t.paymentIntentId} IS NOT NULL`),
    // Migration 0020: an entry's offers (the waitlist's answers); no other booking has an entry.
    index('bookings_waitlist_entry_idx').on(t.waitlistEntryId).where(sql`${t.waitlistEntryId} IS NOT NULL`),
    // Migration 0021: the dashboard's sales (features/dashboard). Only paid bookings have an entry, and a booking
    // gets it when it is paid, never when it is reserved.
    index('bookings_paid_idx').on(t.eventId, t.paidAt).where(sql`${t.paidAt} IS NOT NULL`),
    // Migration 0021: the dashboard's reservations per day. A BRIN index: a few pages summarising ranges of the
    // table, which rows are appended to in the order they were made; a reservation adds no B-tree entry.
    index('bookings_created_brin_idx').using('brin', t.createdAt),
    // No (event_id, status) index: see migration 0005 (it drew reservations away from the unique probe).
  ],
);

/**
 * The waitlist of a sold-out event (contracts/waitlist.ts, decision 021). An entry waits in join order
 * (`joined_seq`) until tickets come back; it is then 'offered' (a pending booking with its id holds the tickets)
 * and ends 'bought', 'expired', 'declined', 'left' or 'cancelled' (the event was). Its status moves only inside
 * the booking module's SQL (ticketing/sql/eventry_waitlist.sql) and its repository.
 */
export const waitlistEntryStatuses = [
  'waiting',
  'offered',
  'bought',
  'expired',
  'declined',
  'left',
  'cancelled',
] as const;
export type WaitlistEntryStatus = (typeof waitlistEntryStatuses)[number];

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    /** 'I'll take fewer': an offer of fewer tickets than asked is welcome. */
    acceptFewer: boolean('accept_fewer').notNull().default(false),
    status: text('status', { enum: waitlistEntryStatuses }).notNull().default('waiting'),
    /** Join order: offers go to the lowest waiting number that fits. */
    joinedSeq: bigserial('joined_seq', { mode: 'number' }).notNull(),
    ...timestamps,
  },
  (t) => [
    check('waitlist_quantity_range', sql`${t.quantity} BETWEEN 1 AND 10`),
    check(
      'waitlist_status_known',
      sql`${t.status} IN ('waiting', 'offered', 'bought', 'expired', 'declined', 'left', 'cancelled')`,
    ),
    // One live entry per user and event.
    uniqueIndex('waitlist_one_live_idx').on(t.eventId, t.userId).where(sql`${t.status} IN ('waiting', 'offered')`),
    // The line: an event's waiting entries in join order.
    index('waitlist_line_idx').on(t.eventId, t.joinedSeq).where(sql`${t.status} = 'waiting'`),
    index('waitlist_user_idx').on(t.userId),
  ],
);

/**
 * What the database's own code needs of the app's configuration (one row, written by every start): the waitlist's
 * offers are made by a trigger (ticketing/sql/eventry_waitlist.sql), in whatever statement gives tickets back.
 */
export const bookingSettings = pgTable(
  'booking_settings',
  {
    /** Always true: the table has one row. */
    id: boolean('id').primaryKey().default(true),
    /** WAITLIST_OFFER_HOURS. */
    waitlistOfferHours: integer('waitlist_offer_hours').notNull(),
    /** APP_TIMEZONE: an offer never lasts past the event's start there. */
    timeZone: text('time_zone').notNull(),
    /** The primary payment provider, which an offer's payment starts with (as a reservation's does); null: none. */
    paymentProvider: text('payment_provider'),
    /** APP_URL: the offer email's link to pay. */
    appUrl: text('app_url').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('booking_settings_one_row', sql`${t.id}`)],
);

/**
 * Money given back for a paid booking (contracts/refunds.ts): asked for first ('requested'), then sent to the
 * provider with the row's id as the idempotency key, then applied to the booking in one transaction
 * ('succeeded'), or left as it was ('failed', with the provider's words). A refund requested and never finished
 * (a crash) is finished by the refunds job. One refund in flight per booking.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    amountPiasters: integer('amount_piasters').notNull(),
    feePiasters: integer('fee_piasters').notNull(),
    reason: text('reason', { enum: ['buyer', 'organiser', 'event_cancelled'] }).notNull(),
    status: text('status', { enum: ['requested', 'succeeded', 'failed'] })
      .notNull()
      .default('requested'),
    failureMessage: text('failure_message'),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('refunds_quantity_positive', sql`${t.quantity} > 0`),
    check('refunds_amounts', sql`${t.amountPiasters} >= 0 AND ${t.feePiasters} >= 0`),
    check('refunds_reason_known', sql`${t.reason} IN ('buyer', 'organiser', 'event_cancelled')`),
    check('refunds_status_known', sql`${t.status} IN ('requested', 'succeeded', 'failed')`),
    uniqueIndex('refunds_one_requested_idx').on(t.bookingId).where(sql`${t.status} = 'requested'`),
    // Migration 0021: the dashboard's refunds per day.
    index('refunds_completed_idx').on(t.completedAt).where(sql`${t.status} = 'succeeded'`),
    index('refunds_booking_idx').on(t.bookingId),
  ],
);

/** Provider webhook events already handled; makes webhook processing idempotent. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  bookingId: uuid('booking_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A provider's payment a hold had before the buyer chose another way to pay (migration 0022). A Paymob intention
 * cannot be called off: it stays payable until its hold's end as it was then (`payableUntil`). Once that has passed
 * the reconciliation job asks the provider about it, once (ticketing/repository.ts findReplacedPaymentsToAsk), so
 * money it took is settled or refunded even when its callback never came.
 */
export const replacedPayments = pgTable(
  'replaced_payments',
  {
    provider: text('provider').notNull(),
    reference: text('reference').notNull(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
    payableUntil: timestamp('payable_until', { withTimezone: true }).notNull(),
    /** When the provider answered the job about it; null until then. */
    askedAt: timestamp('asked_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.reference] }),
    index('replaced_payments_to_ask_idx').on(t.payableUntil).where(sql`${t.askedAt} IS NULL`),
  ],
);

// ---------------------------------------------------------------------------
// Tickets and check-in (server/features/tickets/)
// ---------------------------------------------------------------------------

/**
 * One row per seat of a paid booking, numbered 1..quantity. Issued by the trigger of
 * server/features/ticketing/sql/eventry_issue_tickets.sql when a booking becomes paid, in the same statement,
 * and voided by it when a booking stops being paid. The QR payload is not stored: it is the ticket's id,
 * event and number signed with the server's key (server/features/tickets/signing.ts).
 */
export const tickets = pgTable(
  'tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /**
     * The booking's event, copied so that the door finds a ticket by (event, code). No foreign key: its check
     * would take a share lock on the events row, which every reservation of an on-sale holds for update, and
     * each payment would wait behind the reservations in flight. The booking's own key already ties it.
     */
    eventId: uuid('event_id').notNull(),
    number: integer('number').notNull(),
    /** 10 characters of TICKET_CODE_ALPHABET (contracts/tickets.ts), unique within the event. */
    code: text('code').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the ticket stops being valid (its booking refunded or cancelled). */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkedInBy: text('checked_in_by').references(() => users.id, { onDelete: 'set null' }),
    /** The name of who admitted it, as it was then (the user may be gone). */
    checkedInByName: text('checked_in_by_name'),
    /** Admissions beyond the first: devices that admitted it offline before they knew of each other. */
    extraAdmissions: integer('extra_admissions').notNull().default(0),
  },
  (t) => [
    uniqueIndex('tickets_booking_number_idx').on(t.bookingId, t.number),
    uniqueIndex('tickets_event_code_idx').on(t.eventId, t.code),
    check('tickets_number_range', sql`${t.number} BETWEEN 1 AND 10`),
    check('tickets_checked_in_by_with_time', sql`${t.checkedInAt} IS NOT NULL OR ${t.checkedInBy} IS NULL`),
    // Migration 0021: the dashboard's check-ins per day and arrivals per 15 minutes.
    index('tickets_checked_in_idx').on(t.eventId, t.checkedInAt).where(sql`${t.checkedInAt} IS NOT NULL`),
  ],
);

/**
 * Event pages opened, per event and day (APP_TIMEZONE): the dashboard's funnel. Counted on the server without
 * cookies (POST /api/events/:id/view), added up in each process's memory and written every few seconds
 * (features/dashboard/views.ts). No foreign key: rows are only written for events that exist.
 */
export const pageViews = pgTable(
  'page_views',
  {
    eventId: uuid('event_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    views: bigint('views', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.day] })],
);

/**
 * The dashboard's sums of closed days (decision 025): per time zone, event, local day and way of paying, what the
 * orders of that day add up to. The closing step (features/dashboard/sql/eventry_dashboard_days.sql) adds a day's
 * sums once the day is over and no transaction that began in it is still running; after that, triggers add a row
 * of differences in the transaction of any change to a row whose instant lies in a closed day. No key: rows of one
 * day are summed when read, so that two changes to one day never wait for each other. Each row holds one source's
 * figures (the others 0): sales and tickets held by the day paid, reservations by the day made, refunds by the day
 * they succeeded, check-ins by the day admitted.
 */
export const dashboardDays = pgTable(
  'dashboard_days',
  {
    timeZone: text('time_zone').notNull(),
    eventId: uuid('event_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    paymentProvider: text('payment_provider'),
    paymentMethod: text('payment_method'),
    /** Bookings paid, their tickets and money. */
    sold: integer('sold').notNull().default(0),
    soldTickets: integer('sold_tickets').notNull().default(0),
    grossPiasters: bigint('gross_piasters', { mode: 'number' }).notNull().default(0),
    /** Of them, the tickets their buyers hold now (paid bookings less what was given back). */
    heldTickets: integer('held_tickets').notNull().default(0),
    /** Reservations made and not replaced by their buyer's next choice. */
    reservations: integer('reservations').notNull().default(0),
    refundedTickets: integer('refunded_tickets').notNull().default(0),
    refundedPiasters: bigint('refunded_piasters', { mode: 'number' }).notNull().default(0),
    /** Tickets first admitted and still valid. */
    checkedIn: integer('checked_in').notNull().default(0),
  },
  (t) => [index('dashboard_days_event_idx').on(t.timeZone, t.eventId, t.day)],
);

/** Per time zone, where the closed days end: every instant before `closed_before` is summed in dashboard_days. */
export const dashboardClosed = pgTable('dashboard_closed', {
  timeZone: text('time_zone').primaryKey(),
  /** The local midnight after the last closed day. */
  closedBefore: timestamp('closed_before', { withTimezone: true }).notNull(),
  lastDay: date('last_day', { mode: 'string' }).notNull(),
  closedAt: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who may check tickets in at an event's door besides admins: door staff, granted per event. */
export const doorStaff = pgTable(
  'door_staff',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventId] }), index('door_staff_event_idx').on(t.eventId)],
);

/**
 * Scans a device made offline, once each: the nonce the device gave a scan makes its sync idempotent however
 * often it is sent.
 */
export const checkInScans = pgTable(
  'check_in_scans',
  {
    nonce: uuid('nonce').primaryKey(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    scannedBy: text('scanned_by').references(() => users.id, { onDelete: 'set null' }),
    /** What the sync made of it: admitted (the first admission), or admitted_again (someone had already). */
    outcome: text('outcome', { enum: ['admitted', 'admitted_again', 'void'] }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('check_in_scans_ticket_idx').on(t.ticketId)],
);

/**
 * Secrets the app generates once and every process shares (the ticket signing key, unless
 * TICKET_SIGNING_KEY gives one): the first process to start writes it, the others read it.
 */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------
// Contact and email
// ---------------------------------------------------------------------------

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  description: text('description').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Optional key that makes an email happen at most once (e.g. 'booking-paid:<id>'). */
    dedupeKey: text('dedupe_key').unique(),
    kind: text('kind').notNull(),
    to: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    /** The bodies, or null when the email is stored as `data` and rendered on the way out (renderStoredMail). */
    text: text('text_body'),
    html: text('html_body'),
    data: jsonb('data'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'logged'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('email_outbox_body_check', sql`(${t.text} IS NOT NULL AND ${t.html} IS NOT NULL) OR ${t.data} IS NOT NULL`),
  ],
);

// ---------------------------------------------------------------------------
// Stored pictures that may be shown nowhere (server/plugins/uploads.ts)
// ---------------------------------------------------------------------------

/**
 * Every upload until an event or a profile shows it, and every picture an edit replaced until its file is
 * gone. The unused-uploads job removes the files that nothing shows once `uploaded_at` is older than the
 * grace period, and forgets the rows of those that something shows.
 */
export const uploads = pgTable('uploads', {
  /** As served: /uploads/{folder}/{uuid}.webp. */
  url: text('url').primaryKey(),
  /** When it was uploaded (for a replaced picture: when it was replaced). */
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Set once the file is being removed (nothing showed it when it was set): no save may take it any more, and
   * the file and the row go after that commit. Moved to each attempt's time, so removals that keep failing
   * queue behind the others. Null: not being removed.
   */
  removalTriedAt: timestamp('removal_tried_at', { withTimezone: true }),
});
