import { Button, Flex, Placeholder } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';

/** The refresh link of the groups and invites tabs. */
export function RefreshLink({ onClick, busy }: { onClick: () => void; busy?: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex justifyContent="flex-end">
      <Button size="small" variation="link" onClick={onClick} isLoading={busy} data-testid="tab-refresh">
        <AppIcon name="refresh" /> {t('common.refresh')}
      </Button>
    </Flex>
  );
}

export function TabPlaceholder() {
  return (
    <Flex direction="column" gap="small">
      <Placeholder />
      <Placeholder />
      <Placeholder />
    </Flex>
  );
}
