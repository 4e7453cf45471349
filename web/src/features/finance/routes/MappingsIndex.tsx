// mappings#index: the rules in the order they run on an import — order,
// description, what they apply to, the rule in words, active — with a
// search, the advanced search and numbered pages in the URL; "n" opens a
// new rule.

import { Badge, Flex } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { IndexSearch } from '../../../components/records/AdvancedSearch';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { ruleInWords } from '../mapping-words';
import { mappingsQuery } from '../api/mappings';
import type { Mapping } from '../api/types';
import { FinanceCrumbs } from '../components/FinanceCrumbs';

const ORDER = ['order', 'description', 'created_at'];
const DEFAULTS = { orderBy: 'order', direction: 'asc' as const };

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const [params, update] = useIndexParams(DEFAULTS, ORDER);
  const q = useQuery(mappingsQuery({ db, q: params.q, orderBy: params.orderBy, direction: params.direction, page: params.page, perPage: params.perPage }));
  useShortcuts({ n: () => navigate(paths.create(db, 'mappings')) });
  const columns: Column<Mapping>[] = [
    { key: 'description', label: 'fields.description', render: (m) => m.description ?? '' },
    { key: 'order', label: 'fields.order', render: (m) => (typeof m.order === 'number' ? String(m.order) : '—') },
    { key: 'target', label: 'fields.target', render: (m) => <EnumBadge name="target" value={m.target} /> },
    { key: 'rule', label: 'finance.mappings.rule', render: (m) => <span className="rule-words">{ruleInWords(m, t)}</span> },
    {
      key: 'active',
      label: 'fields.active',
      render: (m) =>
        m.active === false ? (
          <Badge size="small" variation="warning">
            {t('finance.mappings.inactive')}
          </Badge>
        ) : (
          <Badge size="small" variation="success">
            {t('finance.mappings.active')}
          </Badge>
        ),
    },
  ];
  const title = t('nav.mappings');
  return (
    <Page
      title={title}
      breadcrumbs={<FinanceCrumbs db={db} set="mappings" />}
      actions={
        <ButtonLink to={paths.create(db, 'mappings')} size="small" variation="primary" data-testid="new-record" aria-keyshortcuts="n">
          <AppIcon name="plus" /> {t('finance.mappings.new')}
        </ButtonLink>
      }
    >
      <Flex direction="column" gap="small">
        <IndexSearch key={params.q ? 'search' : 'no-search'} params={params} update={update} order={ORDER} searchable />
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
        <RecordTable<Mapping>
          columns={columns}
          rows={q.data?.docs ?? []}
          rowKey={(m) => m._id}
          rowLink={(m) => paths.show(db, 'mappings', m._id)}
          rowTestId={(m) => `mapping-row-${m._id}`}
          loading={q.isPending}
          caption={title}
          empty={
            q.isError ? null : (
              <EmptyStateNext
                icon="mapping"
                title={params.q ? t('records.noMatches') : t('finance.mappings.emptyTitle')}
                message={params.q ? t('finance.noMatchesMessage') : t('finance.mappings.emptyMessage')}
                testId="records-empty"
                next={{ to: paths.create(db, 'mappings'), label: t('finance.mappings.new') }}
              />
            )
          }
        />
        <NumberedPaging page={params.page} hasMore={!!q.data?.hasMore} onPage={(p) => update({ page: p === 1 ? null : p })} />
      </Flex>
    </Page>
  );
}
