// InlineDelete: a row's Delete link that asks again in place (confirm or
// cancel) before it deletes, for the trash and the versions lists.

import { Button } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';

interface InlineDeleteProps {
  /** asking: the row's delete was clicked and waits for the confirmation. */
  asking: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onDelete: () => void;
  deleting: boolean;
  label: string;
  confirmLabel: string;
}

export function InlineDelete({ asking, onAsk, onCancel, onDelete, deleting, label, confirmLabel }: InlineDeleteProps) {
  const { t } = useTranslation();
  if (!asking) {
    return (
      <Button size="small" variation="link" onClick={onAsk}>
        {label}
      </Button>
    );
  }
  return (
    <>
      <Button size="small" variation="destructive" onClick={onDelete} isLoading={deleting}>
        {confirmLabel}
      </Button>
      <Button size="small" variation="link" onClick={onCancel}>
        {t('disk.cancel')}
      </Button>
    </>
  );
}
