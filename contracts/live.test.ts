import { describe, expect, it } from 'vitest';
import { liveEventChangeSchema } from './catalogue';
import { parseLiveChange } from './live';

const valid = {
  op: 'update',
  id: '2948cd80-dd79-4bd5-b2c2-a64e1aad4111',
  ticketsAvailable: 12,
  isDeleted: false,
  version: 3,
};

describe('parseLiveChange', () => {
  it('accepts what the live stream sends and drops unknown fields, like the zod schema', () => {
    const message = { ...valid, extra: 'ignored' };
    expect(parseLiveChange(message)).toEqual(liveEventChangeSchema.parse(message));
  });

  it('refuses every message the zod schema refuses', () => {
    const bad: unknown[] = [
      null,
      'change',
      { ...valid, op: 'upsert' },
      { ...valid, id: 'not-a-uuid' },
      { ...valid, ticketsAvailable: 1.5 },
      { ...valid, ticketsAvailable: '12' },
      { ...valid, isDeleted: 'false' },
      { ...valid, version: undefined },
    ];
    for (const message of bad) {
      expect(liveEventChangeSchema.safeParse(message).success).toBe(false);
      expect(parseLiveChange(message)).toBeUndefined();
    }
  });
});
