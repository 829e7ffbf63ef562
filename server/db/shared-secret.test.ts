import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers';
import { sharedSecret } from './shared-secret';

const { database, drop } = await createTestDatabase();
afterAll(() => drop());

describe('shared secrets', () => {
  it('processes starting at the same moment all get the value the first one stored', async () => {
    let made = 0;
    const values = await Promise.all(
      Array.from({ length: 8 }, () => sharedSecret(database.pool, 'race', () => `value-${++made}`)),
    );
    expect(new Set(values).size).toBe(1);
    expect(await sharedSecret(database.pool, 'race', () => 'later')).toBe(values[0]);
    expect(await sharedSecret(database.pool, 'other', () => 'another')).toBe('another');
  });
});
