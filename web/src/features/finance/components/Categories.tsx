import { AppLink } from '../../../components/RouterLink';

/** Categories: a record's categories as chips, each a link to the list filtered by it when toHref is given. */
export function Categories({ list, toHref }: { list: readonly string[] | undefined; toHref?: (category: string) => string }) {
  if (!list || list.length === 0) return null;
  return (
    <span className="fin-chips">
      {list.map((c) =>
        toHref ? (
          <AppLink key={c} to={toHref(c)} className="fin-chip">
            {c}
          </AppLink>
        ) : (
          <span key={c} className="fin-chip">
            {c}
          </span>
        ),
      )}
    </span>
  );
}
