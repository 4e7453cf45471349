// The switch-to-free and cancel confirmations (SPEC §4, §6): each needs a
// confirmation; the change first writes the unconfirmed-plan adjustment
// and then calls the subscription update handler. The 24-hour lock and the
// free plan's 1,000-record refusal are said in sentences, before asking
// the server (the button is then disabled) and when the server refuses.

import { Alert, Button, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { asApiError } from '../../../lib/errors';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { afterPlanChange, changePlan, type PlanChange } from '../api/billing';
import { FREE_RECORD_LIMIT, lockedUntil, tooManyForFree } from '../plans';

export function LockSentence({ until }: { until: Date }) {
  const { t, i18n } = useTranslation();
  return (
    <Alert variation="warning" data-testid="switch-locked">
      {t('billing.change.locked', { when: formatDateTime(until, i18n.language) })}
    </Alert>
  );
}

export function TooManySentence({ records, limit = FREE_RECORD_LIMIT }: { records: number; limit?: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Alert variation="warning" data-testid="switch-too-many">
      {t('billing.change.tooMany', { records: formatNumber(records, i18n.language, 0), limit: formatNumber(limit, i18n.language, 0) })}
    </Alert>
  );
}

export function PlanChangeModal({
  db,
  change,
  plan,
  records,
  freeRecordLimit = FREE_RECORD_LIMIT,
  switchLockedUntil,
  onClose,
  onDone,
}: {
  db: string;
  change: PlanChange | null;
  plan: string;
  records: number | null;
  freeRecordLimit?: number;
  switchLockedUntil: string | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: (c: PlanChange) => changePlan(db, c),
    onSuccess: async () => {
      await afterPlanChange(qc, db);
      onDone?.();
      onClose();
    },
    onError: async () => {
      // The unconfirmed-plan adjustment may have been written; the lock may have moved.
      await qc.invalidateQueries({ queryKey: ['billing', db] });
    },
  });
  const lock = lockedUntil(switchLockedUntil);
  const tooMany = change === 'free' && tooManyForFree(records, freeRecordLimit);
  const blocked = !!lock || tooMany;
  const planName = t(`plans.${plan}`, { defaultValue: plan });
  const close = () => {
    m.reset();
    onClose();
  };
  return (
    <Modal
      open={change !== null}
      title={change === 'cancel' ? t('billing.change.cancelTitle', { plan: planName }) : t('billing.change.freeTitle')}
      onClose={close}
      closeLabel={t('common.close')}
      testId={change === 'cancel' ? 'cancel-modal' : 'free-modal'}
      footer={
        <>
          <Button onClick={close}>{t('billing.change.keep')}</Button>
          <Button
            variation="primary"
            colorTheme={change === 'cancel' ? 'error' : undefined}
            isDisabled={blocked}
            isLoading={m.isPending}
            onClick={() => change && m.mutate(change)}
            data-testid="plan-change-confirm"
          >
            {change === 'cancel' ? t('billing.change.cancelConfirm') : t('billing.change.freeConfirm')}
          </Button>
        </>
      }
    >
      <Text marginBottom="small">{change === 'cancel' ? t('billing.change.cancelText', { plan: planName }) : t('billing.change.freeText', { plan: planName })}</Text>
      {lock ? <LockSentence until={lock} /> : null}
      {tooMany && records !== null ? <TooManySentence records={records} limit={freeRecordLimit} /> : null}
      {m.error ? <ErrorAlert error={asApiError(m.error)} /> : null}
    </Modal>
  );
}
