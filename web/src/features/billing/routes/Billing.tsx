// subscription#billing (/billing, SPEC §2): the Group's profile card, its
// total size and total records, its plan and next invoice with a checkout
// link, the plan chooser, and the backups panel.

import { Alert, Button, Card, Flex, Grid, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { accountQuery } from '../../../lib/accounts';
import { setActiveDb, useActiveDb } from '../../../lib/active-db';
import { asApiError } from '../../../lib/errors';
import { formatBytes, formatCents, formatDate, formatNumber } from '../../../lib/format';
import { limitsQuery, type Limits } from '../../../lib/limits';
import { paths } from '../../../lib/paths';
import { billingQuery, type Billing } from '../api/billing';
import { activePricesQuery } from '../api/prices';
import { BackupsPanel } from '../components/BackupsPanel';
import { BillingEmailModal } from '../components/BillingEmailModal';
import { LockSentence } from '../components/PlanChangeModal';
import { chooserGroup, PlanChooser } from '../components/PlanChooser';
import { isPaid, lockedUntil, pricesByPlan } from '../plans';
import '../components/billing.css';

function Tile({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId: string }) {
  return (
    <Card variation="outlined" className="billing-tile" data-testid={testId}>
      <Text variation="secondary" fontSize="small">
        {label}
      </Text>
      <Text fontSize="xl" fontWeight="bold">
        {value}
      </Text>
      {sub ? (
        <Text variation="tertiary" fontSize="small">
          {sub}
        </Text>
      ) : null}
    </Card>
  );
}

function ProfileCard({ db, billing, name }: { db: string; billing: Billing; name: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <Card variation="outlined" data-testid="billing-profile">
      <Flex justifyContent="space-between" alignItems="center" marginBottom="small" gap="small">
        <Heading level={4}>{t('billing.profile.title')}</Heading>
        {billing.is_admin ? (
          <Button size="small" onClick={() => setEditing(true)} data-testid="billing-email-edit">
            {t('billing.profile.editEmail')}
          </Button>
        ) : null}
      </Flex>
      <dl className="detail-list">
        <div className="detail-list__row">
          <dt>{t('fields.name')}</dt>
          <dd>{name || '—'}</dd>
        </div>
        <div className="detail-list__row">
          <dt>{t('fields.billing_email')}</dt>
          <dd data-testid="billing-email">{billing.billing_email || <Text as="span" variation="tertiary">{t('billing.profile.noEmail')}</Text>}</dd>
        </div>
        {billing.customer_id ? (
          <div className="detail-list__row">
            <dt>{t('billing.profile.customer')}</dt>
            <dd>{billing.customer_id}</dd>
          </div>
        ) : null}
      </dl>
      {editing ? <BillingEmailModal db={db} current={billing.billing_email} open onClose={() => setEditing(false)} /> : null}
    </Card>
  );
}

function PlanCard({ billing }: { billing: Billing }) {
  const { t, i18n } = useTranslation();
  const prices = useQuery(activePricesQuery);
  const byPlan = pricesByPlan(prices.data ?? [], billing.livemode);
  const lang = i18n.language;
  const lock = lockedUntil(billing.switch_locked_until);
  const inv = billing.next_invoice;
  const upgrade = !isPaid(billing.plan) ? byPlan.pro : undefined;
  return (
    <Card variation="outlined" data-testid="billing-plan">
      <Heading level={4} marginBottom="small">
        {t('billing.plan.title')}
      </Heading>
      <Text fontSize="xl" fontWeight="bold" data-testid="billing-plan-name" data-plan={billing.plan}>
        {t(`plans.${billing.plan}`, { defaultValue: billing.plan })}
      </Text>
      <Text variation="secondary" data-testid="billing-next-invoice">
        {inv ? t('billing.plan.nextInvoice', { amount: formatCents(inv.amount, lang, inv.currency?.toUpperCase() || 'USD'), date: formatDate(inv.date, lang) }) : t('billing.plan.noInvoice')}
      </Text>
      {billing.unconfirmed_plan && billing.unconfirmed_plan !== billing.plan ? (
        <Text variation="tertiary" fontSize="small" data-testid="billing-unconfirmed">
          {billing.unconfirmed_plan === 'cancel'
            ? t('billing.plan.unconfirmedCancel')
            : t('billing.plan.unconfirmed', { plan: t(`plans.${billing.unconfirmed_plan}`, { defaultValue: billing.unconfirmed_plan }) })}
        </Text>
      ) : null}
      {lock ? (
        <div className="billing-plan__lock">
          <LockSentence until={lock} />
        </div>
      ) : null}
      <Flex gap="small" wrap="wrap" marginTop="small">
        {upgrade && billing.is_admin ? (
          <ButtonLink to={paths.checkout(upgrade._id)} variation="primary" size="small" data-testid="billing-checkout-link">
            {t('billing.plan.checkout', { plan: t('plans.pro') })}
          </ButtonLink>
        ) : null}
        <ButtonLink to="#plans" size="small" variation="link">
          {t('billing.plan.compare')}
        </ButtonLink>
        <ButtonLink to={paths.usage()} size="small" variation="link">
          {t('billing.plan.usage')}
        </ButtonLink>
      </Flex>
    </Card>
  );
}

function Tiles({ limits, loading }: { limits: Limits | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  if (loading)
    return (
      <>
        <Placeholder height="5rem" />
        <Placeholder height="5rem" />
      </>
    );
  if (!limits)
    return (
      <Card variation="outlined" columnSpan={{ base: 1, medium: 2 }}>
        <Text variation="tertiary">{t('billing.tiles.unavailable')}</Text>
      </Card>
    );
  const size = (limits.bytes ?? 0) + (limits.drive_bytes ?? 0);
  return (
    <>
      <Tile
        testId="tile-size"
        label={t('billing.tiles.size')}
        value={formatBytes(size, lang)}
        sub={t('billing.tiles.sizeSub', { docs: formatBytes(limits.bytes ?? 0, lang), files: formatBytes(limits.drive_bytes ?? 0, lang) })}
      />
      <Tile
        testId="tile-records"
        label={t('billing.tiles.records')}
        value={formatNumber(limits.records, lang, 0)}
        sub={limits.record_limit ? t('billing.tiles.recordsOf', { limit: formatNumber(limits.record_limit, lang, 0) }) : t('billing.tiles.unlimited')}
      />
    </>
  );
}

export function Component() {
  const { t } = useTranslation();
  const db = useActiveDb() ?? '';
  const navigate = useNavigate();
  const billing = useQuery({ ...billingQuery(db), enabled: !!db });
  const limits = useQuery({ ...limitsQuery(db), enabled: !!db });
  const account = useQuery({ ...accountQuery(db), enabled: !!db });
  const pick = (next: string) => {
    if (next === db) return;
    setActiveDb(next);
    navigate(paths.billing());
  };
  return (
    <Page title={t('nav.billing')}>
      {billing.isPending ? (
        <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
          <Placeholder height="8rem" />
          <Placeholder height="8rem" />
        </Grid>
      ) : billing.isError ? (
        <LoadError error={asApiError(billing.error)} onRetry={() => void billing.refetch()} testId="billing-error" />
      ) : (
        <Flex direction="column" gap="large">
          {!billing.data.billing_email && billing.data.is_admin ? (
            <Alert variation="info" data-testid="billing-email-needed">
              {t('billing.profile.emailNeeded')}
            </Alert>
          ) : null}
          <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
            <ProfileCard db={db} billing={billing.data} name={account.data?.name ?? ''} />
            <PlanCard billing={billing.data} />
            <Tiles limits={limits.data} loading={limits.isPending} />
          </Grid>
          <PlanChooser
            onPick={pick}
            group={chooserGroup(db, billing.data, limits.data?.records ?? null)}
          />
          <BackupsPanel db={db} isAdmin={billing.data.is_admin} />
        </Flex>
      )}
    </Page>
  );
}
