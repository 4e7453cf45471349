// incomes#show, outgos#show, transfers#show, exchanges#show: the record's
// fields with its wallets and amounts in their currencies, its state with
// confirm / unconfirm (and "reviewed" for an imported one), comments and
// history. A confirmed record cannot be deleted: the button says why.

import { Button, Flex } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { MoneyText } from '../../../components/records/Money';
import { MultilineText } from '../../../components/records/MultilineText';
import { DetailList, type DetailRow } from '../../../components/records/RecordShow';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useRouteHandle } from '../../../lib/route-handle';
import { changeState, recordQuery, type StateChange } from '../api/records';
import { kindOfSet, SCOPE, type Wallet } from '../api/types';
import { byId, walletsQuery } from '../api/wallets';
import { Categories } from '../components/Categories';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { PendingEffect } from '../components/PendingEffect';
import { StateBadge } from '../components/StateBadge';
import { WalletName } from '../components/WalletName';

function money(units: unknown, w: Wallet | undefined, fallbackCurrency?: string) {
  return typeof units === 'number' ? <MoneyText units={units} currency={w?.currency ?? fallbackCurrency} precision={w?.precision} /> : '';
}

export function Component() {
  const { t, i18n } = useTranslation();
  const kind = kindOfSet(useRouteHandle().set);
  const { account_id: db = '', record_id: id = '' } = useParams();
  const qc = useQueryClient();
  const q = useQuery(recordQuery(db, id));
  const wallets = useQuery(walletsQuery(db));
  const walletMap = useMemo(() => byId(wallets.data), [wallets.data]);
  const r = q.data;
  const move = useMutation({
    mutationFn: (fn: StateChange) => changeState(db, id, fn),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: [SCOPE, db] }), qc.invalidateQueries({ queryKey: ['balances', db] }), qc.invalidateQueries({ queryKey: ['history', db, id] })]),
  });
  const lang = i18n.language;
  const title = r?.description?.split('\n')[0] || t(`finance.${kind.kind}.one`);
  const src = walletMap.get(r?.source_wallet_id ?? '');
  const dst = walletMap.get(r?.destination_wallet_id ?? '');
  const feeWallet = r?.fee_kind === 'destination' ? dst : src;
  const rows: DetailRow[] = [];
  if (r) {
    rows.push(
      { key: 'description', label: 'fields.description', value: <MultilineText text={r.description} /> },
      { key: 'state', label: 'finance.columns.state', value: <StateBadge record={r} /> },
      { key: 'posted_at', label: 'fields.posted_at', value: formatDate(r.posted_at, lang) },
    );
    if (kind.twoWallets) {
      rows.push(
        { key: 'source_wallet_id', label: 'fields.source_wallet_id', value: <WalletName db={db} id={r.source_wallet_id} wallets={walletMap} /> },
        { key: 'destination_wallet_id', label: 'fields.destination_wallet_id', value: <WalletName db={db} id={r.destination_wallet_id} wallets={walletMap} /> },
      );
    } else {
      rows.push({ key: 'wallet_id', label: 'fields.wallet_id', value: <WalletName db={db} id={r.wallet_id} wallets={walletMap} /> });
    }
    if (kind.kind === 'exchange') {
      rows.push(
        { key: 'value_out', label: 'fields.value_out', value: money(r.value_out, src, r.currency) },
        { key: 'value_in', label: 'fields.value_in', value: money(r.value_in, dst) },
      );
    } else {
      rows.push({ key: 'value', label: 'fields.value', value: money(r.value, kind.twoWallets ? src : walletMap.get(r.wallet_id ?? ''), r.currency) });
    }
    if (kind.twoWallets) {
      rows.push(
        { key: 'fee', label: 'fields.fee', value: r.fee ? money(r.fee, feeWallet) : '' },
        { key: 'fee_kind', label: 'fields.fee_kind', value: r.fee ? t(`enums.fee_kind.${r.fee_kind ?? 'source'}`) : '' },
      );
    }
    if (kind.party) rows.push({ key: kind.party, label: `fields.${kind.party}`, value: r[kind.party] ?? '' });
    rows.push({ key: 'categories', label: 'fields.categories', value: <Categories list={r.categories} toHref={(c) => `${paths.index(db, kind.set)}?category=${encodeURIComponent(c)}`} /> });
    if (r.imported) {
      rows.push({ key: 'import_file', label: 'finance.show.importedFrom', value: r.import_file ? `${r.import_file}${r.import_line ? ` · ${t('finance.show.line', { n: r.import_line })}` : ''}` : '' });
    }
    rows.push({ key: 'created_at', label: 'fields.created_at', value: formatDateTime(r.created_at, lang) });
  }
  return (
    <ShowFrame
      scope={SCOPE}
      itemType={kind.klass}
      title={title}
      breadcrumbs={<FinanceCrumbs db={db} set={kind.set} current={r ? title : undefined} />}
      doc={r}
      error={q.error}
      editTo={paths.edit(db, kind.set, id)}
      afterDelete={paths.index(db, kind.set)}
      deleteBlocked={r?.confirmed ? t('finance.show.deleteConfirmed') : undefined}
      actions={
        r ? (
          <>
            {r.imported ? (
              <Button size="small" onClick={() => move.mutate('unimport')} isDisabled={move.isPending} data-testid="review-record">
                <AppIcon name="check" /> {t('finance.show.reviewed')}
              </Button>
            ) : null}
            {r.confirmed ? (
              <Button size="small" onClick={() => move.mutate('unconfirm')} isLoading={move.isPending} data-testid="unconfirm-record">
                {t('finance.show.unconfirm')}
              </Button>
            ) : (
              <Button size="small" variation="primary" onClick={() => move.mutate('confirm')} isLoading={move.isPending} data-testid="confirm-record">
                <AppIcon name="check" /> {t('finance.show.confirm')}
              </Button>
            )}
          </>
        ) : null
      }
      top={
        <Flex direction="column" gap="xs">
          <ErrorAlert error={move.error ? asApiError(move.error) : null} onDismiss={() => move.reset()} />
          {r ? <PendingEffect db={db} record={r} wallets={walletMap} onConfirm={() => move.mutate('confirm')} confirming={move.isPending} /> : null}
        </Flex>
      }
      details={<DetailList rows={rows} loading={q.isPending} />}
    />
  );
}

