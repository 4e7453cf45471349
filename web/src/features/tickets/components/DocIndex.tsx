// The index of one kind of service document (estimates, contracts,
// maintenances) or of equipment: a search (a number or a text in the given
// fields), one enum filter, the advanced search, numbered pages, all in the
// URL; empty, loading and error states; "n" opens a new one. With
// `selected`, rows can be picked (kept across pages) and `selectedActions`
// act on them.

import { Flex, SelectField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon, type IconName } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { IndexSearch } from '../../../components/records/AdvancedSearch';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordTable, type Column, type RowSelection } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { ButtonLink } from '../../../components/RouterLink';
import type { Doc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { docListQuery, type DocListInput } from '../api/servicedocs';
import { DeskCrumbs } from './DeskCrumbs';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { useLatestSearchParams } from '../../../lib/search-params';

export interface DocFilter {
  /** The field filtered on and the URL parameter. */
  field: string;
  /** i18n key of the filter's label. */
  label: string;
  /** i18n key of the "any" option and of each value (`${prefix}.${value}`). */
  anyLabel: string;
  prefix: string;
  values: readonly string[];
  /** How a URL value becomes the selector's (booleans for "active"). */
  toSelector?: (v: string) => unknown;
}

export function DocIndex<T extends Doc>({
  set,
  klass,
  icon,
  searchIn,
  order,
  ascending = false,
  columns,
  filter,
  extraActions,
  selection,
  selectedActions,
}: {
  set: 'estimates' | 'contracts' | 'maintenances' | 'equipment';
  klass: DocListInput['klass'];
  icon: IconName;
  searchIn: readonly string[];
  /** The fields a list may be ordered by, its default first. */
  order: readonly string[];
  /** The default order reads A→Z (names) rather than newest first (dates). */
  ascending?: boolean;
  columns: Column<T>[];
  filter?: DocFilter;
  extraActions?: ReactNode;
  selection?: RowSelection<T>;
  /** Shown above the table while rows are selected. */
  selectedActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const [sp, setSp] = useLatestSearchParams();
  const [params, update] = useIndexParams({ orderBy: order[0] ?? 'created_at', direction: ascending ? 'asc' : 'desc' }, order);
  const filterValue = filter ? (sp.get(filter.field) ?? '') : '';
  const selector = filter && filterValue && filter.values.includes(filterValue) ? { [filter.field]: filter.toSelector ? filter.toSelector(filterValue) : filterValue } : undefined;
  const q = useQuery(
    docListQuery<T>({ db, klass, q: params.q, filter: selector, searchIn, orderBy: params.orderBy, direction: params.direction, page: params.page, perPage: params.perPage }),
  );
  useShortcuts({ n: () => navigate(paths.create(db, set)) });
  const title = t(`nav.${set}`);
  const filtered = !!params.q || !!selector;
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set={set} />}
      actions={
        <>
          {extraActions}
          <ButtonLink to={paths.create(db, set)} size="small" variation="primary" data-testid="new-record" aria-keyshortcuts="n">
            <AppIcon name="plus" /> {t(`docs.${set}.new`)}
          </ButtonLink>
        </>
      }
    >
      <Flex direction="column" gap="small">
        <IndexSearch params={params} update={update} order={order} searchable />
        {filter ? (
          <SelectField
            label={t(filter.label)}
            name={`filter-${filter.field}`}
            size="small"
            maxWidth="16rem"
            value={filterValue}
            onChange={(e) =>
              setSp((prev) => {
                const next = new URLSearchParams(prev);
                if (e.target.value) next.set(filter.field, e.target.value);
                else next.delete(filter.field);
                next.delete('page');
                return next;
              })
            }
          >
            <option value="">{t(filter.anyLabel)}</option>
            {filter.values.map((v) => (
              <option key={v} value={v}>
                {t(`${filter.prefix}.${v}`)}
              </option>
            ))}
          </SelectField>
        ) : null}
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
        {selection && selection.selected.size > 0 ? selectedActions : null}
        <RecordTable<T>
          {...(selection ? { selection } : {})}
          columns={columns}
          rows={q.data?.docs ?? []}
          rowKey={(r) => r._id}
          rowLink={(r) => paths.show(db, set, r._id)}
          loading={q.isPending}
          caption={title}
          empty={
            q.isError ? null : (
              <EmptyState
                icon={icon}
                title={filtered ? t('records.noMatches') : t(`docs.${set}.emptyTitle`)}
                message={filtered ? t('docs.noMatchesMessage') : t(`docs.${set}.emptyMessage`)}
                testId="records-empty"
                action={
                  <ButtonLink to={paths.create(db, set)} variation="primary">
                    {t(`docs.${set}.new`)}
                  </ButtonLink>
                }
              />
            )
          }
        />
        <NumberedPaging page={params.page} hasMore={!!q.data?.hasMore} onPage={(p) => update({ page: p === 1 ? null : p })} />
      </Flex>
    </Page>
  );
}
