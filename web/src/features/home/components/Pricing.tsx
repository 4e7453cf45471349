// Pricing from the price list (PlanPrice in the prices db). Billing is per
// Group and by storage, never per user.

import { Badge, Card, Flex, Grid, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { formatCents } from '../../../lib/format';
import { pricesQuery, type PlanPrice } from '../api/get-prices';

const KNOWN_PLANS = ['free', 'pro', 'corp', 'server'];

function planKey(p: PlanPrice): string {
  return KNOWN_PLANS.includes(p.group_plan ?? '') ? (p.group_plan as string) : 'other';
}

export function Pricing() {
  const { t, i18n } = useTranslation();
  const q = useQuery(pricesQuery);
  const prices = q.data ?? [];
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="landing-section">
      <Heading level={3} id="pricing-title" marginBottom="xs">
        {t('home.pricing.title')}
      </Heading>
      <Text variation="secondary" marginBottom="large">
        {t('home.pricing.subtitle')}
      </Text>
      {q.isPending ? (
        <Grid templateColumns={{ base: '1fr', medium: 'repeat(3, 1fr)' }} gap="medium">
          {[0, 1, 2].map((i) => (
            <Card key={i} variation="outlined">
              <Placeholder size="large" marginBottom="small" />
              <Placeholder />
            </Card>
          ))}
        </Grid>
      ) : prices.length === 0 ? (
        <EmptyState icon="plan" title={t('home.pricing.emptyTitle')} message={t('home.pricing.emptyMessage')} testId="pricing-empty" />
      ) : (
        <Grid templateColumns={{ base: '1fr', medium: `repeat(${Math.min(prices.length, 4)}, 1fr)` }} gap="medium" data-testid="pricing-plans">
          {prices.map((p) => {
            const key = planKey(p);
            return (
              <Card key={p._id} variation="outlined" className={`plan-card plan-card--${key}`}>
                <Flex direction="column" gap="small">
                  <Flex justifyContent="space-between" alignItems="center">
                    <Heading level={4}>{t(`plans.${key}`)}</Heading>
                    {key === 'pro' ? <Badge variation="info">{t('home.pricing.popular')}</Badge> : null}
                  </Flex>
                  <Text fontSize="xxl" fontWeight="bold">
                    {formatCents(p.unit_amount ?? 0, i18n.language)}
                  </Text>
                  <Text variation="secondary" fontSize="small">
                    {t(`home.pricing.unit.${key}`)}
                  </Text>
                  <Text>{t(`home.pricing.features.${key}`)}</Text>
                </Flex>
              </Card>
            );
          })}
        </Grid>
      )}
      <Text variation="tertiary" fontSize="small" marginTop="medium">
        {t('home.pricing.note')}
      </Text>
    </section>
  );
}
