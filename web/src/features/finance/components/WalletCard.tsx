// One wallet on the wallets index: its name, label and currency, the
// balance the server keeps, what is pending and, for a card, the credit
// still available.

import { Badge, Card, Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyText } from '../../../components/records/Money';
import { AppLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import type { Wallet, WalletFigures } from '../api/types';

export function WalletCard({ db, wallet, figures, loadingFigures }: { db: string; wallet: Wallet; figures: WalletFigures | undefined; loadingFigures: boolean }) {
  const { t } = useTranslation();
  const headingId = useId();
  const id = wallet._id;
  const money = (units: number | undefined) => <MoneyText units={units} currency={wallet.currency} precision={wallet.precision} />;
  const balance = figures?.balance ?? wallet.start_balance ?? 0;
  return (
    <Card
      as="article"
      variation="outlined"
      className={`wallet-card${wallet.active === false ? ' wallet-card--inactive' : ''}`}
      aria-labelledby={headingId}
      data-testid={`wallet-card-${id}`}
    >
      <Flex justifyContent="space-between" alignItems="flex-start" gap="xs">
        <AppLink to={paths.show(db, 'wallets', id)} className="wallet-card__name">
          <span id={headingId}>{wallet.name || t('records.untitled')}</span>
        </AppLink>
        <Flex gap="xxs" wrap="wrap" justifyContent="flex-end">
          <Badge size="small" data-testid={`wallet-currency-${id}`}>
            {wallet.currency}
          </Badge>
          {wallet.card ? <Badge size="small" variation="info">{t('fields.card')}</Badge> : null}
          {wallet.active === false ? <Badge size="small" variation="warning">{t('finance.wallets.inactive')}</Badge> : null}
        </Flex>
      </Flex>
      {wallet.label ? (
        <Text fontSize="small" variation="secondary">
          {wallet.label}
        </Text>
      ) : null}
      <div>
        <Text fontSize="small" variation="secondary">
          {t('fields.balance')}
        </Text>
        {loadingFigures ? (
          <Placeholder />
        ) : (
          <div className="wallet-card__balance" data-testid={`wallet-balance-${id}`} data-units={balance}>
            {money(balance)}
          </div>
        )}
      </div>
      {figures ? (
        <dl className="figure-list">
          <dt>{t('finance.figures.pending')}</dt>
          <dd data-testid={`wallet-pending-${id}`}>{money(figures.pending_transactions)}</dd>
          <dt>{t('finance.figures.afterPending')}</dt>
          <dd data-testid={`wallet-after-pending-${id}`}>{money(figures.balance_after_pending)}</dd>
          {typeof figures.available_credit === 'number' ? (
            <>
              <dt>{t('finance.figures.availableCredit')}</dt>
              <dd data-testid={`wallet-credit-${id}`}>{money(figures.available_credit)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </Card>
  );
}
