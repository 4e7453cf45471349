import { Text } from '@aws-amplify/ui-react';
import { MoneyText } from '../../../components/records/Money';
import type { MoneyRecord, Wallet } from '../api/types';

/** RecordAmount: a record's main amount in its wallet's currency and precision (an exchange: sent → received). */
export function RecordAmount({ record, wallets }: { record: MoneyRecord; wallets: ReadonlyMap<string, Wallet> }) {
  if (record.klass === 'Exchange') {
    const src = wallets.get(record.source_wallet_id ?? '');
    const dst = wallets.get(record.destination_wallet_id ?? '');
    return (
      <span className="fin-exchange-amount">
        <MoneyText units={record.value_out} currency={src?.currency ?? record.currency} precision={src?.precision} />
        <Text as="span" variation="tertiary">
          {' → '}
        </Text>
        <MoneyText units={record.value_in} currency={dst?.currency} precision={dst?.precision} />
      </span>
    );
  }
  const w = wallets.get((record.klass === 'Transfer' ? record.source_wallet_id : record.wallet_id) ?? '');
  const cls = record.klass === 'Income' ? 'fin-income' : record.klass === 'Outgo' ? 'fin-expense' : undefined;
  return (
    <span className={cls}>
      <MoneyText units={record.value} currency={w?.currency ?? record.currency} precision={w?.precision} />
    </span>
  );
}
