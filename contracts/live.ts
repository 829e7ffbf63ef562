/**
 * Names and shape of the GET /api/events/live messages, without zod: the web app's first load checks
 * them by hand so that zod stays out of it. The server validates with liveEventChangeSchema (catalogue.ts).
 */
import { isUuid } from './ids';

export const LIVE_CHANGE_EVENT = 'change';
export const LIVE_RESYNC_EVENT = 'resync';
export const LIVE_READY_EVENT = 'ready';

const LIVE_OPS = ['insert', 'update', 'delete'] as const;

/** One `change` message: an event was inserted, updated (price, availability, soft delete...) or deleted. */
export interface LiveChange {
  op: (typeof LIVE_OPS)[number];
  id: string;
  ticketsAvailable: number;
  isDeleted: boolean;
  version: number;
}

/** The message when it has the shape of liveEventChangeSchema, otherwise undefined. */
export function parseLiveChange(value: unknown): LiveChange | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (
    !LIVE_OPS.includes(v.op as LiveChange['op']) ||
    typeof v.id !== 'string' ||
    !isUuid(v.id) ||
    !Number.isInteger(v.ticketsAvailable) ||
    typeof v.isDeleted !== 'boolean' ||
    !Number.isInteger(v.version)
  ) {
    return undefined;
  }
  return {
    op: v.op as LiveChange['op'],
    id: v.id,
    ticketsAvailable: v.ticketsAvailable as number,
    isDeleted: v.isDeleted,
    version: v.version as number,
  };
}
