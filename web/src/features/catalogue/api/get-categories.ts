import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Category } from '../../../../../contracts/catalogue';
import { api } from '../../../lib/api-client';

export function getCategories(): Promise<Category[]> {
  return api.get<Category[]>('/api/categories');
}

export function getCategoriesQueryOptions() {
  // Reference data: it changes with a deployment, not while someone browses.
  return queryOptions({ queryKey: ['categories'], queryFn: getCategories, staleTime: 10 * 60_000 });
}

export function useCategories() {
  return useQuery(getCategoriesQueryOptions());
}
