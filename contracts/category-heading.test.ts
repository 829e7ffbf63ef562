import { describe, expect, it } from 'vitest';
import { categoryDescription, categoryView } from './category-heading';

const categories = [
  { id: 'music', name: 'Music' },
  { id: 'food', name: 'Food & Drink' },
];

describe('categoryView', () => {
  it('names a category found by id or by name, in any case', () => {
    expect(categoryView('music', categories)).toEqual({ heading: 'Music', unknown: false });
    expect(categoryView('FOOD & drink', categories)).toEqual({ heading: 'Food & Drink', unknown: false });
    expect(categoryView('All', categories)).toEqual({ heading: 'All events', unknown: false });
  });

  it('says an unknown category is not found once the categories are known, and never shows its word as one', () => {
    const view = categoryView('<b>free tickets</b>', categories);
    expect(view).toEqual({ heading: 'Category not found', unknown: true });
    expect(categoryDescription(view)).not.toContain('free tickets');
    // While the categories load, the word from the address stands in (it is usually a real one).
    expect(categoryView('music', undefined)).toEqual({ heading: 'music', unknown: false });
  });

  it('describes a list for search engines', () => {
    expect(categoryDescription(categoryView('music', categories))).toBe(
      'Browse music on Eventry and book your tickets.',
    );
  });
});
