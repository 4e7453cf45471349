// The balances panel (SPEC §2): at most 3 placeholder rows while loading,
// then only the currencies whose balance is above 0 — nothing at all when
// there are none (no wallets, or finance not built yet).

import { Card, Flex, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { balancesQuery } from '../api/balances';

export const BALANCE_PLACEHOLDERS = 3;

export function BalancesPanel({ db }: { db: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery(balancesQuery(db));
  if (q.isPending) {
    return (
      <Card variation="outlined" data-testid="balances-loading">
        <Flex direction="column" gap="xs">
          {Array.from({ length: BALANCE_PLACEHOLDERS }, (_, i) => (
            <Placeholder key={i} />
          ))}
        </Flex>
      </Card>
    );
  }
  const balances = q.data ?? [];
  if (balances.length === 0) return null;
  return (
    <Card variation="outlined" data-testid="balances">
      <Heading level={5} marginBottom="small">
        {t('dashboard.balances')}
      </Heading>
      <Flex as="ul" direction="column" gap="xs" className="plain-list">
        {balances.map((b) => (
          <Flex as="li" key={b.currency} justifyContent="space-between">
            <Text>{b.currency}</Text>
            <Text fontWeight="bold">{formatMoney(b.balance, i18n.language, { currency: b.currency })}</Text>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
