import type { Category } from './catalogue';
import type { I18n } from './i18n/i18n';
import type { MessageKey } from './i18n/types';

/**
 * A category's name in the page's language (one the messages do not know keeps the name it was given). Apart from
 * category-heading.ts: the home page's banner and the category pills need only this.
 */
export function categoryName(category: Pick<Category, 'id' | 'name'>, i18n: I18n): string {
  const key = `catalogue.categories.${category.id}` as MessageKey;
  const name = i18n.t(key);
  return name === key ? category.name : name;
}
