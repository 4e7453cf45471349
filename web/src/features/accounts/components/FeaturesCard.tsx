// The features card (SPEC §2 Admin, §9 feature switches): for the ticket app,
// switches for billing, checklist, maintenance, project-management and
// estimate-observation, the contract-receipt choice and the receipt text
// (receipt-configuration), each an adjustment; other apps have no
// configuration. Only admins change them.

import { Button, Card, Flex, Heading, SelectField, SwitchField, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { accountConfigQuery, isEnabled, saveAdjustment, CONFIG_DEFAULTS } from '../../../lib/account-config';
import { asApiError } from '../../../lib/errors';
import type { AppModule } from '../../../lib/module';

export const FEATURE_SWITCHES = ['billing', 'checklist', 'maintenance', 'project-management', 'estimate-observation'] as const;
export const CONTRACT_RECEIPT = ['on-demand', 'always'] as const;

export function FeaturesCard({ db, module, admin }: { db: string; module: AppModule; admin: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery(accountConfigQuery(db));
  const cfg = q.data ?? CONFIG_DEFAULTS;
  const save = useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => saveAdjustment(db, key, value),
    onSettled: () => qc.invalidateQueries({ queryKey: ['account-config', db] }),
  });
  const pending = (key: string) => save.isPending && save.variables?.key === key;
  const storedReceipt = typeof cfg['receipt-configuration'] === 'string' ? (cfg['receipt-configuration'] as string) : '';
  const [receipt, setReceipt] = useState(storedReceipt);
  useEffect(() => setReceipt(storedReceipt), [storedReceipt]);
  return (
    <Card variation="outlined" data-testid="features-card">
      <Heading level={5} marginBottom="small">
        {t('accounts.admin.features')}
      </Heading>
      {module !== 'ticket' ? (
        <Text variation="secondary" data-testid="no-configuration">
          {t('accounts.admin.noConfiguration')}
        </Text>
      ) : (
        <Flex direction="column" gap="small">
          <ErrorAlert error={save.error ? asApiError(save.error) : null} onDismiss={() => save.reset()} />
          {FEATURE_SWITCHES.map((key) => (
            <SwitchField
              key={key}
              label={t(`accounts.features.${key}`)}
              name={key}
              labelPosition="end"
              isChecked={isEnabled(pending(key) ? save.variables?.value : cfg[key])}
              isDisabled={!admin || q.isPending || save.isPending}
              onChange={(e) => save.mutate({ key, value: e.target.checked ? 'enabled' : 'disabled' })}
              data-testid={`feature-${key}`}
            />
          ))}
          <SelectField
            label={t('accounts.features.contract-receipt')}
            name="contract-receipt"
            size="small"
            value={String(pending('contract-receipt') ? save.variables?.value : (cfg['contract-receipt'] ?? 'on-demand'))}
            isDisabled={!admin || q.isPending || save.isPending}
            onChange={(e) => save.mutate({ key: 'contract-receipt', value: e.target.value })}
            descriptiveText={t('accounts.features.contractReceiptHelp')}
          >
            {CONTRACT_RECEIPT.map((v) => (
              <option key={v} value={v}>
                {t(`accounts.features.receipt.${v}`)}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            label={t('accounts.features.receipt-configuration')}
            descriptiveText={t('accounts.features.receiptConfigurationHelp')}
            name="receipt-configuration"
            rows={3}
            value={receipt}
            isDisabled={!admin || q.isPending}
            onChange={(e) => setReceipt(e.target.value)}
            data-testid="feature-receipt-configuration"
          />
          {admin && receipt !== storedReceipt ? (
            <Button size="small" alignSelf="flex-end" isLoading={pending('receipt-configuration')} onClick={() => save.mutate({ key: 'receipt-configuration', value: receipt })} data-testid="save-receipt-configuration">
              {t('common.save')}
            </Button>
          ) : null}
        </Flex>
      )}
    </Card>
  );
}
