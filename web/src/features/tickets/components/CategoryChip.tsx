// A category as a chip in its own colour, readable on either theme.

import { useQuery } from '@tanstack/react-query';
import { categoriesQuery } from '../api/customers';

export function CategoryChip({ db, id }: { db: string; id: string | null | undefined }) {
  const q = useQuery({ ...categoriesQuery(db), enabled: !!id });
  if (!id) return null;
  const c = q.data?.find((x) => x._id === id);
  if (!c) return null;
  return (
    <span className="category-chip" data-testid="category-chip">
      <span className="category-chip__dot" style={{ background: c.color || '#64748b' }} aria-hidden="true" />
      {c.name}
    </span>
  );
}
