import { describe, expect, it } from 'vitest';
import { categoryDescription, categoryView as view } from './category-heading';
import { i18nOf } from './i18n/all';

const en = i18nOf('en');
const ar = i18nOf('ar');
const categoryView = (category: string, list: typeof categories | undefined) => view(category, list, en);

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
    expect(categoryDescription(view, en)).not.toContain('free tickets');
    // While the categories load, the word from the address stands in (it is usually a real one).
    expect(categoryView('music', undefined)).toEqual({ heading: 'music', unknown: false });
  });

  it('describes a list for search engines', () => {
    expect(categoryDescription(categoryView('music', categories), en)).toBe(
      'Browse music on Eventry and book your tickets.',
    );
  });

  it('names categories and lists in Arabic on the Arabic site', () => {
    expect(view('music', categories, ar)).toEqual({ heading: 'الموسيقى', unknown: false });
    expect(view('all', categories, ar).heading).toBe('كل الفعاليات');
    expect(categoryDescription(view('music', categories, ar), ar)).toBe(
      'تصفّح فعاليات \u2068الموسيقى\u2069 على إيفنتري واحجز تذاكرك.',
    );
    // A category added later without a translation keeps its own name.
    expect(view('jazz', [{ id: 'jazz', name: 'Jazz' }], ar).heading).toBe('Jazz');
  });
});
