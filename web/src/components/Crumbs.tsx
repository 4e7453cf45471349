import { Breadcrumbs } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Link as RRLink } from 'react-router';
import { paths } from '../lib/paths';

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

/** RecordCrumbs: Dashboard > <set> > current, the crumbs of every record screen (a module names its sets). */
export function RecordCrumbs({ db, set, current }: { db: string; set: string; current?: string | undefined }) {
  const { t } = useTranslation();
  const items: Array<{ label: string; to?: string }> = [
    { label: t('nav.dashboard'), to: paths.dashboard(db) },
    { label: t(`nav.${set}`), to: paths.index(db, set) },
  ];
  if (current) items.push({ label: current });
  return <Crumbs items={items} label={t('records.breadcrumbs')} />;
}
