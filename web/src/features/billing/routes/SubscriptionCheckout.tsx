// subscription#checkout (/checkout/{price_id}, SPEC §2): the account
// summary, the selected plan and its price, legal links and the embedded
// payment frame. price_id is a PlanPrice id, or free, or cancel (those two
// open their confirmation). The price lookup must find exactly one price,
// else "We could not find any plan, please refresh the page" (SPEC §5).

import { Alert, Button, Card, Flex, Grid, Heading, Link, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadError } from '../../../components/LoadError';
import { Page } from '../../../components/Page';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { accountQuery } from '../../../lib/accounts';
import { useActiveDb } from '../../../lib/active-db';
import { asApiError } from '../../../lib/errors';
import { limitsQuery } from '../../../lib/limits';
import { paths } from '../../../lib/paths';
import { afterPlanChange, billingQuery, type Billing, type PlanChange } from '../api/billing';
import { priceLookupQuery, type PlanPrice } from '../api/prices';
import { BillingEmailModal } from '../components/BillingEmailModal';
import { PaymentFrame } from '../components/PaymentFrame';
import { LockSentence, PlanChangeModal } from '../components/PlanChangeModal';
import { PriceText } from '../components/PriceText';
import { checkoutPrice, lockedUntil } from '../plans';
import '../components/billing.css';

export function LegalLinks() {
  const { t } = useTranslation();
  return (
    <nav className="legal-links" aria-label={t('billing.pay.legal')} data-testid="legal-links">
      <Link href={paths.terms()} isExternal>
        {t('billing.pay.terms')}
      </Link>
      <Link href={paths.privacy()} isExternal>
        {t('billing.pay.privacy')}
      </Link>
      <Link href={paths.refund()} isExternal>
        {t('billing.pay.refund')}
      </Link>
    </nav>
  );
}

function AccountSummary({ db, billing, name }: { db: string; billing: Billing; name: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <Card variation="outlined" data-testid="checkout-account">
      <Heading level={4} marginBottom="small">
        {t('billing.pay.account')}
      </Heading>
      <dl className="detail-list">
        <div className="detail-list__row">
          <dt>{t('fields.name')}</dt>
          <dd>{name || db}</dd>
        </div>
        <div className="detail-list__row">
          <dt>{t('billing.pay.currentPlan')}</dt>
          <dd>{t(`plans.${billing.plan}`, { defaultValue: billing.plan })}</dd>
        </div>
        <div className="detail-list__row">
          <dt>{t('fields.billing_email')}</dt>
          <dd data-testid="checkout-billing-email">{billing.billing_email || <Text as="span" variation="tertiary">{t('billing.profile.noEmail')}</Text>}</dd>
        </div>
      </dl>
      {billing.is_admin ? (
        <Button size="small" marginTop="small" onClick={() => setEditing(true)} data-testid="billing-email-edit">
          {billing.billing_email ? t('billing.profile.editEmail') : t('billing.profile.addEmail')}
        </Button>
      ) : null}
      {editing ? <BillingEmailModal db={db} current={billing.billing_email} open onClose={() => setEditing(false)} /> : null}
    </Card>
  );
}

function PlanSummary({ price }: { price: PlanPrice }) {
  const { t } = useTranslation();
  const plan = price.group_plan ?? 'other';
  return (
    <Card variation="outlined" data-testid="checkout-plan">
      <Heading level={4} marginBottom="small">
        {t('billing.pay.plan')}
      </Heading>
      <Text fontSize="xl" fontWeight="bold">
        {t(`plans.${plan}`, { defaultValue: plan })}
      </Text>
      <Text data-testid="checkout-price">
        <PriceText price={price} />
      </Text>
      <Text variation="tertiary" fontSize="small" marginTop="xs">
        {t('billing.pay.byStorage')}
      </Text>
    </Card>
  );
}

function PlanChangeCheckout({ db, change, billing }: { db: string; change: PlanChange; billing: Billing }) {
  const { t } = useTranslation();
  const limits = useQuery(limitsQuery(db));
  const [open, setOpen] = useState(true);
  const [done, setDone] = useState(false);
  return (
    <Card variation="outlined" data-testid="checkout-change">
      <Heading level={4} marginBottom="small">
        {change === 'cancel' ? t('billing.change.cancelTitle', { plan: t(`plans.${billing.plan}`, { defaultValue: billing.plan }) }) : t('billing.change.freeTitle')}
      </Heading>
      {done ? (
        <Alert variation="success" data-testid="plan-change-done">
          {t('billing.change.done')} <AppLink to={paths.billing()}>{t('billing.pay.toBilling')}</AppLink>
        </Alert>
      ) : (
        <Button onClick={() => setOpen(true)} isDisabled={!billing.is_admin}>
          {change === 'cancel' ? t('billing.change.cancelConfirm') : t('billing.change.freeConfirm')}
        </Button>
      )}
      <PlanChangeModal
        db={db}
        change={open && billing.is_admin && !done ? change : null}
        plan={billing.plan}
        records={limits.data?.records ?? null}
        freeRecordLimit={billing.free_record_limit}
        switchLockedUntil={billing.switch_locked_until}
        onClose={() => setOpen(false)}
        onDone={() => setDone(true)}
      />
    </Card>
  );
}

function PaidCheckout({ db, priceId, billing }: { db: string; priceId: string; billing: Billing }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const lookup = useQuery(priceLookupQuery(priceId));
  const [paid, setPaid] = useState(false);
  if (lookup.isPending) return <Placeholder height="8rem" />;
  const price = lookup.isError ? null : checkoutPrice(lookup.data);
  if (!price) {
    return (
      <EmptyState
        icon="plan"
        title={t('billing.pay.noPlan')}
        testId="checkout-no-plan"
        action={
          <Button onClick={() => void lookup.refetch()} data-testid="checkout-refresh">
            {t('common.refresh')}
          </Button>
        }
      />
    );
  }
  const lock = lockedUntil(billing.switch_locked_until);
  const same = price.group_plan === billing.plan;
  const blocked = !billing.is_admin || !billing.billing_email || !!lock || same;
  return (
    <Flex direction="column" gap="medium">
      <PlanSummary price={price} />
      <LegalLinks />
      <Card variation="outlined" data-testid="checkout-payment">
        <Heading level={4} marginBottom="small">
          {t('billing.pay.payment')}
        </Heading>
        {paid ? (
          <Alert variation="success" data-testid="checkout-done">
            {t('billing.pay.done', { plan: t(`plans.${price.group_plan}`, { defaultValue: price.group_plan }) })}{' '}
            <AppLink to={paths.billing()}>{t('billing.pay.toBilling')}</AppLink>
          </Alert>
        ) : (
          <Flex direction="column" gap="small">
            {!billing.is_admin ? <Text variation="secondary">{t('billing.chooser.adminsOnly')}</Text> : null}
            {billing.is_admin && !billing.billing_email ? (
              <Alert variation="info" data-testid="checkout-email-needed">
                {t('billing.profile.emailNeeded')}
              </Alert>
            ) : null}
            {same ? <Text variation="secondary">{t('billing.pay.samePlan')}</Text> : null}
            {lock ? <LockSentence until={lock} /> : null}
            <PaymentFrame
              db={db}
              priceId={price._id}
              disabled={blocked}
              testMode={!!billing.test_complete}
              onComplete={() => {
                setPaid(true);
                void afterPlanChange(qc, db);
              }}
            />
          </Flex>
        )}
      </Card>
    </Flex>
  );
}

export function Component() {
  const { t } = useTranslation();
  const { price_id: priceId = '' } = useParams();
  const db = useActiveDb() ?? '';
  const billing = useQuery({ ...billingQuery(db), enabled: !!db });
  const account = useQuery({ ...accountQuery(db), enabled: !!db });
  const change: PlanChange | null = priceId === 'free' || priceId === 'cancel' ? priceId : null;
  return (
    <Page title={t('billing.pay.title')} actions={<ButtonLink to={paths.billing()} size="small">{t('nav.billing')}</ButtonLink>}>
      {billing.isPending ? (
        <Placeholder height="8rem" />
      ) : billing.isError ? (
        <LoadError error={asApiError(billing.error)} onRetry={() => void billing.refetch()} testId="checkout-error" />
      ) : (
        <Grid templateColumns={{ base: '1fr', large: '1fr 2fr' }} gap="medium" alignItems="start">
          <AccountSummary db={db} billing={billing.data} name={account.data?.name ?? ''} />
          {change ? <PlanChangeCheckout db={db} change={change} billing={billing.data} /> : <PaidCheckout db={db} priceId={priceId} billing={billing.data} />}
        </Grid>
      )}
    </Page>
  );
}
