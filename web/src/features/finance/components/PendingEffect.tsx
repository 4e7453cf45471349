// What an unconfirmed record would do to the balance (issue 22 item 14):
// typed in by hand it is pending — it counts in each wallet's "after
// pending", not in its balance — and this says so in one sentence per
// wallet, beside the one-click Confirm. SPEC §3 keeps pending_transactions
// and balance_after_pending on a wallet for exactly this.

import { Alert, Button, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { MoneyText } from '../../../components/records/Money';
import { moves } from '../balance';
import type { MoneyRecord, Wallet } from '../api/types';
import { figuresQuery } from '../api/wallets';

export function PendingEffect({
  db,
  record,
  wallets,
  onConfirm,
  confirming,
}: {
  db: string;
  record: MoneyRecord;
  wallets: Map<string, Wallet>;
  onConfirm: () => void;
  confirming: boolean;
}) {
  const { t } = useTranslation();
  const figures = useQuery(figuresQuery(db));
  if (record.confirmed || record.imported) return null;
  const effect = Object.entries(moves(record)).filter(([, n]) => n !== 0);
  return (
    <Alert variation="warning" data-testid="pending-effect" heading={t('finance.pending.title')}>
      <Flex direction="column" gap="xs">
        {effect.map(([id, n]) => {
          const w = wallets.get(id);
          const now = figures.data?.[id]?.balance ?? w?.start_balance ?? 0;
          const m = (units: number) => <MoneyText units={units} currency={w?.currency} precision={w?.precision} />;
          return (
            <Text key={id} data-testid={`pending-effect-${id}`}>
              {t('finance.pending.wallet', { wallet: w?.name ?? id })} {m(now)}
              {' · '}
              {t('finance.pending.confirmed')} {m(now + n)}
            </Text>
          );
        })}
        <Flex>
          <Button size="small" variation="primary" onClick={onConfirm} isLoading={confirming} data-testid="pending-confirm">
            <AppIcon name="check" /> {t('finance.pending.confirm')}
          </Button>
        </Flex>
      </Flex>
    </Alert>
  );
}
