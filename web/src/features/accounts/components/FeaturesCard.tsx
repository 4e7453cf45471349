// The features card (SPEC §2 Admin, §9 feature switches): for the ticket app,
// switches for billing, checklist, maintenance, project-management and
// estimate-observation, the contract-receipt choice and the receipt text
// (receipt-configuration), each an adjustment; other apps have no
// configuration. Only admins change them. Turning checklists on offers to
// give the open tickets of categories with a checklist the one they missed.

import { Alert, Button, Card, Flex, Heading, SelectField, SwitchField, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { accountConfigQuery, isEnabled, saveAdjustment, CONFIG_DEFAULTS } from '../../../lib/account-config';
import { asApiError } from '../../../lib/errors';
import type { AppModule } from '../../../lib/module';
import { addChecklistsToOpenTickets, openTicketsWithoutChecklist } from '../api/checklists';

export const FEATURE_SWITCHES = ['billing', 'checklist', 'maintenance', 'project-management', 'estimate-observation'] as const;
export const CONTRACT_RECEIPT = ['on-demand', 'always'] as const;

type SaveSetting = UseMutationResult<void, Error, { key: string; value: string }>;

/** TextSetting: a free-text setting printed on receipts, saved with its own button. */
function TextSetting({ settingKey, stored, admin, disabled, save }: { settingKey: string; stored: unknown; admin: boolean; disabled: boolean; save: SaveSetting }) {
  const { t } = useTranslation();
  const value = typeof stored === 'string' ? stored : '';
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <>
      <TextAreaField
        label={t(`accounts.features.${settingKey}`)}
        descriptiveText={t(`accounts.features.${settingKey}Help`)}
        name={settingKey}
        rows={3}
        value={text}
        isDisabled={!admin || disabled}
        onChange={(e) => setText(e.target.value)}
        data-testid={`feature-${settingKey}`}
      />
      {admin && text !== value ? (
        <Button size="small" alignSelf="flex-end" isLoading={save.isPending && save.variables?.key === settingKey} onClick={() => save.mutate({ key: settingKey, value: text })} data-testid={`save-${settingKey}`}>
          {t('common.save')}
        </Button>
      ) : null}
    </>
  );
}

export function FeaturesCard({ db, module, admin }: { db: string; module: AppModule; admin: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery(accountConfigQuery(db));
  const cfg = q.data ?? CONFIG_DEFAULTS;
  // After checklists are turned on: how many open tickets could get theirs.
  const [offer, setOffer] = useState<number | null>(null);
  const save = useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => saveAdjustment(db, key, value),
    onSuccess: async (_r, { key, value }) => {
      if (key !== 'checklist') return;
      setOffer(value === 'enabled' ? await openTicketsWithoutChecklist(db).catch(() => 0) : null);
      addChecklists.reset();
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['account-config', db] }),
  });
  const addChecklists = useMutation({
    mutationFn: () => addChecklistsToOpenTickets(db),
    onSuccess: () => {
      setOffer(null);
      void qc.invalidateQueries({ queryKey: ['tickets', db] });
    },
  });
  const pending = (key: string) => save.isPending && save.variables?.key === key;
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
          {offer !== null && offer > 0 ? (
            <Alert variation="info" data-testid="checklist-offer">
              <Flex direction="column" gap="xs">
                <Text>{t(offer === 1 ? 'accounts.features.checklistOfferOne' : 'accounts.features.checklistOffer', { count: offer })}</Text>
                <Flex gap="small" wrap="wrap">
                  <Button size="small" variation="primary" isLoading={addChecklists.isPending} onClick={() => addChecklists.mutate()} data-testid="checklist-offer-add">
                    {t(offer === 1 ? 'accounts.features.checklistOfferAddOne' : 'accounts.features.checklistOfferAdd', { count: offer })}
                  </Button>
                  <Button size="small" onClick={() => setOffer(null)} data-testid="checklist-offer-skip">
                    {t('accounts.features.checklistOfferSkip')}
                  </Button>
                </Flex>
              </Flex>
            </Alert>
          ) : null}
          {addChecklists.isSuccess ? (
            <Alert variation="success" isDismissible onDismiss={() => addChecklists.reset()} data-testid="checklist-offer-done">
              {t(addChecklists.data === 1 ? 'accounts.features.checklistOfferDoneOne' : 'accounts.features.checklistOfferDone', { count: addChecklists.data })}
            </Alert>
          ) : null}
          <ErrorAlert error={addChecklists.error ? asApiError(addChecklists.error) : null} onDismiss={() => addChecklists.reset()} />
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
          <TextSetting settingKey="receipt-configuration" stored={cfg['receipt-configuration']} admin={admin} disabled={q.isPending} save={save} />
          <TextSetting settingKey="receipt-terms" stored={cfg['receipt-terms']} admin={admin} disabled={q.isPending} save={save} />
        </Flex>
      )}
    </Card>
  );
}
