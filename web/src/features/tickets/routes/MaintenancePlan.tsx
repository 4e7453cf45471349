// The maintenance plan: what comes due in the next 30, 60 or 90 days,
// overdue first and marked, each row linking to the maintenance and its
// equipment.

import { Badge, Flex, Table, TableBody, TableCell, TableRow, Text, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { AppLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { PLAN_DAYS, planQuery } from '../api/servicedocs';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { HeadRow } from '../../../components/HeadRow';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const [sp, setSp] = useSearchParams();
  const asked = Number(sp.get('days'));
  const days = (PLAN_DAYS as readonly number[]).includes(asked) ? asked : 30;
  const q = useQuery(planQuery(db, days));
  const title = t('docs.plan.title');
  const rows = q.data?.rows ?? [];
  return (
    <Page title={title} breadcrumbs={<DeskCrumbs db={db} set="maintenances" current={title} />}>
      <Flex direction="column" gap="medium">
        <ToggleButtonGroup
          value={String(days)}
          isExclusive
          isSelectionRequired
          onChange={(v) => setSp(v === '30' ? {} : { days: String(v) }, { replace: true })}
          aria-label={t('docs.plan.window')}
          size="small"
        >
          {PLAN_DAYS.map((d) => (
            <ToggleButton key={d} value={String(d)} data-testid={`plan-${d}`}>
              {t('docs.plan.days', { count: d })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
        {q.isPending ? (
          <Text>{t('common.loading')}</Text>
        ) : rows.length === 0 && !q.isError ? (
          <EmptyState icon="maintenance" title={t('docs.plan.emptyTitle')} message={t('docs.plan.emptyMessage', { count: days })} testId="plan-empty" />
        ) : (
          <div className="table-scroll">
            <Table size="small" highlightOnHover data-testid="plan-table" aria-label={title}>
              <HeadRow cells={[t('fields.next_maintenance'), t('fields.equipment_id'), t('fields.customer_id'), t('docs.plan.when')]} />
              <TableBody>
                {rows.map(({ maintenance: m, days_left: left, customer_id: customer }) => {
                  const eq = m.equipment_id ?? '';
                  return (
                    <TableRow key={m._id} data-testid="plan-row" data-overdue={left < 0}>
                      <TableCell>
                        <AppLink to={paths.show(db, 'maintenances', m._id)}>{formatDate(m.next_maintenance, i18n.language)}</AppLink>
                      </TableCell>
                      <TableCell>{eq ? <AppLink to={paths.show(db, 'equipment', eq)}>{q.data?.equipment[eq] || eq}</AppLink> : ''}</TableCell>
                      <TableCell>{customer ? <AppLink to={paths.show(db, 'customers', customer)}>{q.data?.customers[customer] || customer}</AppLink> : ''}</TableCell>
                      <TableCell>
                        {left < 0 ? (
                          <Badge variation="error" size="small">
                            {-left === 1 ? t('docs.plan.overdueOne', { count: 1 }) : t('docs.plan.overdue', { count: -left })}
                          </Badge>
                        ) : left === 0 ? (
                          <Badge variation="warning" size="small">
                            {t('docs.plan.today')}
                          </Badge>
                        ) : (
                          left === 1 ? t('docs.plan.inDaysOne', { count: 1 }) : t('docs.plan.inDays', { count: left })
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
        )}
      </Flex>
    </Page>
  );
}

