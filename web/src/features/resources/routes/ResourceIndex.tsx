// <set>#index for any resource set: advanced search, numbered paging,
// loading and empty states (the record kit on the generic definition).

import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { IndexSearch } from '../../../components/records/AdvancedSearch';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { ButtonLink } from '../../../components/RouterLink';
import type { Doc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { paths } from '../../../lib/paths';
import { listRecordsQuery } from '../api/list-records';
import { fieldContext, formatValue, moneyOf } from '../components/format-value';
import { ResourceCrumbs } from '../components/ResourceCrumbs';
import { useResource } from '../components/useResource';

export function Component() {
  const { t, i18n } = useTranslation();
  const { def, db } = useResource();
  const orderFields = useMemo(
    () => Array.from(new Set([...def.columns.map((c) => c.name), 'created_at', 'updated_at'])),
    [def],
  );
  // Names read A→Z; dates and numbers newest or largest first.
  const defaults = useMemo(() => ({ orderBy: def.defaultOrder, direction: ascendingByDefault(def.defaultOrder) ? ('asc' as const) : ('desc' as const) }), [def]);
  const [params, update] = useIndexParams(defaults, orderFields);
  const q = useQuery(
    listRecordsQuery({
      db,
      klass: def.klass,
      orderBy: params.orderBy,
      direction: params.direction,
      page: params.page,
      perPage: params.perPage,
      searchField: def.searchField,
      q: params.q,
    }),
  );
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);

  const columns: Column<Doc>[] = def.columns.map((c) => ({
    key: c.name,
    label: `fields.${c.name}`,
    render: (row) => formatValue(c.kind, row[c.name], i18n.language, t, { ...fieldContext(def.fields.find((f) => f.name === c.name), c.name, db), ...moneyOf(row) }),
  }));
  const title = t(`nav.${def.set}`);

  return (
    <Page
      title={title}
      breadcrumbs={<ResourceCrumbs db={db} set={def.set} />}
      actions={
        <>
          <Button size="small" onClick={() => void refetch()} aria-label={t('common.refresh')}>
            <AppIcon name="refresh" />
          </Button>
          {def.readOnly ? null : (
            <ButtonLink to={paths.create(db, def.set)} size="small" variation="primary" data-testid="new-record">
              <AppIcon name="plus" /> {t('records.new')}
            </ButtonLink>
          )}
        </>
      }
    >
      <IndexSearch params={params} update={update} order={orderFields} searchable={!!def.searchField} />
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void refetch()} /> : null}
      <RecordTable<Doc>
        columns={columns}
        rows={q.data?.docs ?? []}
        rowKey={(r) => r._id}
        rowLink={(r) => paths.show(db, def.set, r._id)}
        loading={q.isPending}
        caption={title}
        empty={
          q.isError ? null : (
            <EmptyState
              icon={def.icon}
              title={params.q ? t('records.noMatches') : t('records.emptyTitle')}
              message={params.q ? t('records.noMatchesMessage', { q: params.q }) : t('records.emptyMessage')}
              testId="records-empty"
              action={
                def.readOnly ? undefined : (
                  <ButtonLink to={paths.create(db, def.set)} variation="primary">
                    {t('records.new')}
                  </ButtonLink>
                )
              }
            />
          )
        }
      />
      <NumberedPaging page={params.page} hasMore={!!q.data?.hasMore} onPage={(p) => update({ page: p === 1 ? null : p })} />
    </Page>
  );
}

/** ascendingByDefault: orders by a name-like field read A→Z. */
export function ascendingByDefault(orderBy: string): boolean {
  return ['name', 'title', 'description', 'identifier', 'email', 'order'].includes(orderBy);
}
