// The plan chooser (SPEC §2): an account picker when the user has several
// Groups, the 15-row plan comparison table, numbered notes, and the way to
// each plan: a paid plan opens its checkout, free and cancel their
// confirmation modals (only admins on pro or corp see cancel).

import { Badge, Button, Flex, Heading, SelectField, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { AppIcon } from '../../../components/icons';
import { ButtonLink } from '../../../components/RouterLink';
import { switchable, useMemberships } from '../../../lib/accounts';
import { formatCents } from '../../../lib/format';
import { accountOf } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import type { Billing, PlanChange } from '../api/billing';
import { activePricesQuery, type PlanPrice } from '../api/prices';
import { COMPARISON_ROWS, enoughPrices, NOTES, PLAN_COLUMNS, pricesByPlan, type PlanColumn } from '../plans';
import { PlanChangeModal } from './PlanChangeModal';
import { PriceText } from './PriceText';

/** AccountPicker: which Group the plan is for, when the user has several (accepted) Groups. */
export function AccountPicker({ current, onPick }: { current: string | null; onPick: (db: string) => void }) {
  const { t } = useTranslation();
  const all = useMemberships().data ?? [];
  const mine = switchable(all, null);
  if (mine.length < 2 && current) return null;
  if (mine.length === 0) return null;
  return (
    <SelectField
      label={t('billing.chooser.account')}
      value={current ?? ''}
      onChange={(e) => e.target.value && onPick(e.target.value)}
      data-testid="account-picker"
      maxWidth="28rem"
    >
      {current ? null : <option value="">{t('billing.chooser.pickAccount')}</option>}
      {mine.map((m) => (
        <option key={m._id} value={accountOf(m)}>
          {m.name || accountOf(m)} · {t(`plans.${m['confirmed-plan'] || 'free'}`, { defaultValue: m['confirmed-plan'] })}
        </option>
      ))}
    </SelectField>
  );
}

function Mark({ yes }: { yes: boolean }) {
  const { t } = useTranslation();
  return yes ? (
    <span className="compare__yes">
      <AppIcon name="check" /> <span className="visually-hidden">{t('common.yes')}</span>
    </span>
  ) : (
    <span className="compare__no" aria-label={t('common.no')}>
      —
    </span>
  );
}

export function ComparisonTable({
  byPlan,
  plan,
  action,
}: {
  byPlan: Partial<Record<string, PlanPrice>>;
  plan: string | null;
  action?: (col: PlanColumn) => React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="compare-scroll" tabIndex={0} role="region" aria-label={t('billing.chooser.tableLabel')}>
      <table className="compare" data-testid="plan-table">
        <caption className="visually-hidden">{t('billing.chooser.tableLabel')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('billing.chooser.feature')}</th>
            {PLAN_COLUMNS.map((c) => (
              <th scope="col" key={c} className={plan === c ? 'compare__current' : undefined}>
                {t(`plans.${c}`)}
                {plan === c ? (
                  <Badge size="small" variation="success" marginInlineStart="xs">
                    {t('billing.chooser.current')}
                  </Badge>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {COMPARISON_ROWS.map((row) => (
            <tr key={row.key} data-testid="plan-row">
              <th scope="row">
                {t(`billing.compare.rows.${row.key}.label`)}
                {row.note ? <sup className="compare__note-ref">{row.note}</sup> : null}
              </th>
              {PLAN_COLUMNS.map((c) => {
                const cell = row.cells[c];
                return (
                  <td key={c} className={plan === c ? 'compare__current' : undefined}>
                    {cell === 'price' ? (
                      <PriceText price={byPlan[c]} />
                    ) : cell === 'text' ? (
                      t(`billing.compare.rows.${row.key}.${c}`)
                    ) : (
                      <Mark yes={cell === 'yes'} />
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
          {action ? (
            <tr>
              <th scope="row">
                <span className="visually-hidden">{t('billing.chooser.choose')}</span>
              </th>
              {PLAN_COLUMNS.map((c) => (
                <td key={c}>{action(c)}</td>
              ))}
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

export function Notes({ serverPrice }: { serverPrice: PlanPrice | undefined }) {
  const { t, i18n } = useTranslation();
  return (
    <ol className="compare-notes" data-testid="plan-notes">
      {NOTES.map((n) => (
        <li key={n}>{t(`billing.compare.notes.${n}`, { price: formatCents(serverPrice?.unit_amount ?? 90000, i18n.language) })}</li>
      ))}
    </ol>
  );
}

export interface ChooserGroup {
  db: string;
  plan: string;
  livemode: boolean;
  isAdmin: boolean;
  canCancel: boolean;
  records: number | null;
  freeRecordLimit?: number;
  switchLockedUntil: string | null;
}

/** chooserGroup: what the chooser needs of a Group, from its billing state and its record count (null: not known yet). */
export function chooserGroup(db: string, billing: Billing, records: number | null): ChooserGroup {
  return {
    db,
    plan: billing.plan,
    livemode: billing.livemode,
    isAdmin: billing.is_admin,
    canCancel: billing.can_cancel,
    records,
    freeRecordLimit: billing.free_record_limit,
    switchLockedUntil: billing.switch_locked_until,
  };
}

/**
 * PlanChooser for one Group (or none yet: /checkout without a Group shows
 * the table and the picker only). onPick changes the Group.
 */
export function PlanChooser({ group, onPick }: { group: ChooserGroup | null; onPick: (db: string) => void }) {
  const { t } = useTranslation();
  const q = useQuery(activePricesQuery);
  const [change, setChange] = useState<PlanChange | null>(null);
  const livemode = group?.livemode ?? false;
  const prices = q.data ?? [];
  const byPlan = pricesByPlan(prices, livemode);
  const plan = group?.plan ?? null;
  const paid = plan === 'pro' || plan === 'corp';
  const action = (c: PlanColumn) => {
    if (!group) return null;
    if (c === plan) return <Text variation="tertiary">{t('billing.chooser.current')}</Text>;
    if (!group.isAdmin) return null;
    if (c === 'free')
      return (
        <Button size="small" onClick={() => setChange('free')} data-testid="choose-free">
          {t('billing.chooser.switchFree')}
        </Button>
      );
    const p = byPlan[c];
    return p ? (
      <ButtonLink size="small" variation="primary" to={paths.checkout(p._id)} data-testid={`choose-${c}`}>
        {t('billing.chooser.choosePlan', { plan: t(`plans.${c}`) })}
      </ButtonLink>
    ) : null;
  };
  return (
    <section aria-labelledby="plans-title" id="plans" className="billing-section" data-testid="plan-chooser">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small" marginBottom="small">
        <Heading level={3} id="plans-title">
          {t('billing.chooser.title')}
        </Heading>
        {group && group.isAdmin && group.canCancel && paid ? (
          <Button size="small" colorTheme="error" variation="link" onClick={() => setChange('cancel')} data-testid="cancel-plan">
            {t('billing.chooser.cancel', { plan: t(`plans.${plan}`) })}
          </Button>
        ) : null}
      </Flex>
      <AccountPicker current={group?.db ?? null} onPick={onPick} />
      {group && !group.isAdmin ? (
        <Text variation="secondary" marginTop="small">
          {t('billing.chooser.adminsOnly')}
        </Text>
      ) : null}
      {q.isPending ? (
        <Text marginTop="medium">{t('common.loading')}</Text>
      ) : q.isError || !enoughPrices(prices, livemode) ? (
        <EmptyState
          icon="plan"
          title={t('billing.chooser.noPlans')}
          message={t('billing.chooser.noPlansHelp')}
          testId="no-plans"
          action={<Button onClick={() => void q.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <>
          <ComparisonTable byPlan={byPlan} plan={plan} action={action} />
          <Notes serverPrice={byPlan.server} />
        </>
      )}
      {group ? (
        <PlanChangeModal
          db={group.db}
          change={change}
          plan={plan ?? 'free'}
          records={group.records}
          freeRecordLimit={group.freeRecordLimit}
          switchLockedUntil={group.switchLockedUntil}
          onClose={() => setChange(null)}
        />
      ) : null}
    </section>
  );
}
