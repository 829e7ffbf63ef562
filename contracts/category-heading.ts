import type { Category } from './catalogue';
import { categoryName } from './category-name';
import { ALL_CATEGORIES } from './constants';
import type { I18n } from './i18n/i18n';

export interface CategoryView {
  /** The events list's heading (and the page's title). */
  heading: string;
  /** The categories are known and none has this id or name. */
  unknown: boolean;
}

/** The heading of /events-page/{category}, shared by the page and the HTML the server writes for it. */
export function categoryView(category: string, categories: readonly Category[] | undefined, i18n: I18n): CategoryView {
  const wanted = category.toLowerCase();
  if (wanted === ALL_CATEGORIES) return { heading: i18n.t('catalogue.allEvents'), unknown: false };
  const match = categories?.find((c) => c.id === wanted || c.name.toLowerCase() === wanted);
  if (match) return { heading: categoryName(match, i18n), unknown: false };
  // Until the categories arrive, the address's own word; once they have, an unknown one is said to be.
  return categories
    ? { heading: i18n.t('catalogue.categoryNotFound'), unknown: true }
    : { heading: category, unknown: false };
}

/** The page's description for search engines and link previews. */
export function categoryDescription(view: CategoryView, i18n: I18n): string {
  return view.unknown
    ? i18n.t('catalogue.categoryNotFoundDescription')
    : i18n.t('catalogue.categoryDescription', {
        category: i18n.lang === 'en' ? view.heading.toLowerCase() : view.heading,
      });
}
