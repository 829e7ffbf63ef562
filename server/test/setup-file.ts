import { afterEach, beforeEach } from 'vitest';

// A console.error during a test fails it: errors must be handled, not printed and ignored.
const original = console.error;
let calls: unknown[][] = [];

beforeEach(() => {
  calls = [];
  console.error = (...args: unknown[]) => {
    calls.push(args);
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  if (calls.length > 0) {
    const first = calls[0]?.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
    throw new Error(`console.error was called during the test: ${first}`);
  }
});
