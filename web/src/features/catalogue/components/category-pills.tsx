import { categoryName } from '../../../../../contracts/category-name';
import { ALL_CATEGORIES } from '../../../../../contracts/constants';
import { PillLink } from '../../../components/ui/pill';
import { Skeleton } from '../../../components/ui/skeleton';
import { useI18n } from '../../../lib/i18n';
import { useCategories } from '../api/get-categories';

/** 'All' plus one pill per category (`current` is the URL's name, or an id, any case); `hrefFor` keeps the rest of the view (the search) and resets the page. */
export function CategoryPills({ current, hrefFor }: { current: string; hrefFor: (category: string) => string }) {
  const i18n = useI18n();
  const { data: categories, isPending } = useCategories();
  const value = current.toLowerCase();
  return (
    <nav
      aria-label={i18n.t('catalogue.categoriesLabel')}
      className="-mx-4 -mt-1 overflow-x-auto px-4 pt-1 pb-2 sm:-mx-1 sm:px-1"
    >
      <ul className="flex gap-2 sm:flex-wrap">
        <li>
          <PillLink to={hrefFor(ALL_CATEGORIES)} active={value === ALL_CATEGORIES}>
            {i18n.t('catalogue.all')}
          </PillLink>
        </li>
        {isPending
          ? Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
              <li key={i}>
                <Skeleton className="h-9 w-24 rounded-full" />
              </li>
            ))
          : categories?.map((c) => (
              <li key={c.id}>
                {/* The address carries the category's name; an id (older links) still selects it. */}
                <PillLink to={hrefFor(c.name)} active={value === c.name.toLowerCase() || value === c.id}>
                  {categoryName(c, i18n)}
                </PillLink>
              </li>
            ))}
      </ul>
    </nav>
  );
}
