// RecordActions: a record screen's Edit link and Delete button (the screen
// asks before it deletes).

import { Button } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../icons';
import { ButtonLink } from '../RouterLink';

/**
 * RecordActions: Edit (to editTo; none without it) and Delete, which calls
 * onDelete, or is disabled with deleteBlocked as the reason. editShortcut
 * names the `e` key on the link, for screens that bind it.
 */
export function RecordActions({
  editTo,
  editShortcut = false,
  onDelete,
  deleteBlocked,
}: {
  editTo?: string | null | undefined;
  editShortcut?: boolean;
  onDelete: () => void;
  deleteBlocked?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      {editTo ? (
        <ButtonLink to={editTo} size="small" data-testid="edit-record" aria-keyshortcuts={editShortcut ? 'e' : undefined}>
          <AppIcon name="edit" /> {t('records.edit')}
        </ButtonLink>
      ) : null}
      <Button size="small" variation="destructive" onClick={onDelete} isDisabled={!!deleteBlocked} title={deleteBlocked} data-testid="delete-record">
        <AppIcon name="trash" /> {t('records.delete')}
      </Button>
    </>
  );
}
