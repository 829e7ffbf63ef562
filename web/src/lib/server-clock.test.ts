import { describe, expect, it } from 'vitest';
import { clockOffset } from './server-clock';

describe('clockOffset', () => {
  const at = Date.parse('2026-11-25T20:00:00.300Z');

  it('is 0 for a device whose clock agrees with the server, within the header whole seconds', () => {
    expect(clockOffset('Wed, 25 Nov 2026 20:00:00 GMT', at)).toBe(0);
    expect(clockOffset('Wed, 25 Nov 2026 20:00:01 GMT', at)).toBe(0);
  });

  it('is how far ahead or behind the server is for a device whose clock is wrong', () => {
    // The device is 5 minutes ahead: the server says 19:55:00.
    expect(clockOffset('Wed, 25 Nov 2026 19:55:00 GMT', at)).toBe(-299_800);
    // The device is 3 minutes behind.
    expect(clockOffset('Wed, 25 Nov 2026 20:03:00 GMT', at)).toBe(180_200);
  });

  it('is 0 when there is no readable header', () => {
    expect(clockOffset('', at)).toBe(0);
    expect(clockOffset('not a date', at)).toBe(0);
  });
});
