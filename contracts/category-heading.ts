import type { Category } from './catalogue';
import { ALL_CATEGORIES } from './constants';

export interface CategoryView {
  /** The events list's heading (and the page's title). */
  heading: string;
  /** The categories are known and none has this id or name. */
  unknown: boolean;
}

/** The heading of /events-page/{category}, shared by the page and the HTML the server writes for it. */
export function categoryView(category: string, categories: readonly Category[] | undefined): CategoryView {
  const wanted = category.toLowerCase();
  if (wanted === ALL_CATEGORIES) return { heading: 'All events', unknown: false };
  const match = categories?.find((c) => c.id === wanted || c.name.toLowerCase() === wanted);
  if (match) return { heading: match.name, unknown: false };
  // Until the categories arrive, the address's own word; once they have, an unknown one is said to be.
  return categories ? { heading: 'Category not found', unknown: true } : { heading: category, unknown: false };
}

/** The page's description for search engines and link previews. */
export function categoryDescription(view: CategoryView): string {
  return view.unknown
    ? 'There is no such category on Eventry. Browse all events and book your tickets.'
    : `Browse ${view.heading.toLowerCase()} on Eventry and book your tickets.`;
}
