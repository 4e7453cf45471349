import { Button, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../Modal';

/** ConfirmDelete asks before a record is removed. */
export function ConfirmDelete({
  open,
  onCancel,
  onConfirm,
  busy,
  what,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  busy?: boolean;
  what: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('records.deleteTitle')}
      onClose={onCancel}
      closeLabel={t('common.close')}
      footer={
        <>
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
          <Button variation="destructive" onClick={onConfirm} isLoading={busy} data-testid="confirm-delete">
            {t('records.delete')}
          </Button>
        </>
      }
    >
      <Text>{t('records.deleteMessage', { what })}</Text>
    </Modal>
  );
}
