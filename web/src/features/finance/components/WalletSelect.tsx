// WalletSelect: a wallet chosen from the Group's wallets by name (with its
// currency), a native select so it is quick by keyboard and on a phone.
// Inactive wallets are offered only when already chosen.

import { SelectField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { walletLabel, walletsQuery } from '../api/wallets';
import { errorOf } from '../../../components/ErrorAlert';

export function WalletSelect({
  db,
  label,
  name,
  value,
  onChange,
  error,
  isRequired,
  isDisabled,
  anyLabel,
  descriptiveText,
  size,
  testId,
}: {
  db: string;
  label: string;
  name: string;
  value: string | null | undefined;
  onChange: (id: string | null) => void;
  error?: string | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  /** The empty option's text ("Any wallet" in a filter); "Choose…" by default. */
  anyLabel?: string;
  descriptiveText?: ReactNode;
  size?: 'small' | 'large';
  testId?: string;
}) {
  const { t } = useTranslation();
  const q = useQuery(walletsQuery(db));
  const wallets = (q.data ?? []).filter((w) => w.active !== false || w._id === value);
  return (
    <SelectField
      label={label}
      name={name}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value || null)}
      {...errorOf(error)}
      isRequired={isRequired}
      isDisabled={isDisabled || q.isPending}
      descriptiveText={descriptiveText}
      size={size}
      data-testid={testId}
    >
      <option value="">{anyLabel ?? t('records.choose')}</option>
      {wallets.map((w) => (
        <option key={w._id} value={w._id}>
          {walletLabel(w)}
        </option>
      ))}
    </SelectField>
  );
}
