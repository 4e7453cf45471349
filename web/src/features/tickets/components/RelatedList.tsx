// A short list of related records (a customer's equipment, an equipment's
// tickets) with links, an empty line and an optional "add" link.

import { Flex, Loader, Text } from '@aws-amplify/ui-react';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { AppIcon } from '../../../components/icons';
import { paths } from '../../../lib/paths';

export function RelatedList({
  db,
  set,
  rows,
  loading,
  empty,
  addTo,
  addLabel,
}: {
  db: string;
  set: string;
  rows: Array<{ id: string; label: string; detail?: string | undefined; status?: string | undefined }>;
  loading: boolean;
  empty: string;
  addTo?: string;
  addLabel?: string;
}) {
  if (loading) return <Loader />;
  return (
    <Flex direction="column" gap="xs">
      {rows.length === 0 ? <Text variation="tertiary">{empty}</Text> : null}
      <ul className="related-list">
        {rows.map((r) => (
          <li key={r.id}>
            <AppLink to={paths.show(db, set, r.id)}>{r.label}</AppLink>
            {r.detail ? <span className="muted"> · {r.detail}</span> : null}
            {r.status ? <> <EnumBadge name="status" value={r.status} /></> : null}
          </li>
        ))}
      </ul>
      {addTo && addLabel ? (
        <ButtonLink to={addTo} size="small" alignSelf="flex-start">
          <AppIcon name="plus" /> {addLabel}
        </ButtonLink>
      ) : null}
    </Flex>
  );
}
