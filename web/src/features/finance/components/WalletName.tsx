import { Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import type { MoneyRecord, Wallet } from '../api/types';

/** WalletName: a wallet's name as a link to it. */
export function WalletName({ db, id, wallets }: { db: string; id: string | undefined; wallets: ReadonlyMap<string, Wallet> }) {
  const { t } = useTranslation();
  if (!id) return null;
  const w = wallets.get(id);
  if (!w) {
    return (
      <Text as="span" variation="tertiary">
        {t('records.missingRecord')}
      </Text>
    );
  }
  return <AppLink to={paths.show(db, 'wallets', id)}>{w.name || t('records.untitled')}</AppLink>;
}

/** RecordWallets: the wallet of an income or expense, or "source → destination". */
export function RecordWallets({ db, record, wallets }: { db: string; record: MoneyRecord; wallets: ReadonlyMap<string, Wallet> }) {
  if (record.klass === 'Transfer' || record.klass === 'Exchange') {
    return (
      <span>
        <WalletName db={db} id={record.source_wallet_id} wallets={wallets} />
        {' → '}
        <WalletName db={db} id={record.destination_wallet_id} wallets={wallets} />
      </span>
    );
  }
  return <WalletName db={db} id={record.wallet_id} wallets={wallets} />;
}
