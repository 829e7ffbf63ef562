import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export interface OwnedBooking {
  id: string;
  status: string;
  totalPiasters: number;
  paymentIntentId: string | null;
  failureMessage: string | null;
  [key: string]: unknown;
}

export async function findBooking(tx: DbOrTx, id: string): Promise<OwnedBooking | undefined> {
  const result = await tx.execute<OwnedBooking>(
    sql`SELECT id, status, total_piasters AS "totalPiasters", payment_intent_id AS "paymentIntentId",
            failure_message AS "failureMessage"
          FROM bookings WHERE id = ${id}`,
  );
  return result.rows[0];
}
