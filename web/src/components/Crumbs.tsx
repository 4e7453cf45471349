import { Breadcrumbs } from '@aws-amplify/ui-react';
import { Link as RRLink } from 'react-router';

/** Crumbs: breadcrumbs with client-side links; the last item is the current page. */
export function Crumbs({ items, label }: { items: Array<{ label: string; to?: string }>; label: string }) {
  return (
    <Breadcrumbs.Container aria-label={label} marginBottom="small">
      {items.map((it, i) => {
        const last = i === items.length - 1;
        return (
          <Breadcrumbs.Item key={`${it.label}-${i}`}>
            {it.to && !last ? (
              <Breadcrumbs.Link as={RRLink} to={it.to}>
                {it.label}
              </Breadcrumbs.Link>
            ) : (
              <Breadcrumbs.Link isCurrent>{it.label}</Breadcrumbs.Link>
            )}
            {last ? null : <Breadcrumbs.Separator />}
          </Breadcrumbs.Item>
        );
      })}
    </Breadcrumbs.Container>
  );
}
