import { Button } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import type { IconName } from '../../../components/icons';

/** The groups, invites and user_tokens tabs in their empty state, with the refresh link where the spec has one. */
export function PendingTab({ tab, icon, onRefresh }: { tab: 'groups' | 'invites' | 'user_tokens'; icon: IconName; onRefresh?: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={icon}
      title={t(`profile.tabs.${tab}Empty`)}
      message={t(`profile.tabs.${tab}Help`)}
      testId={`tab-${tab}-empty`}
      action={
        onRefresh ? (
          <Button size="small" variation="link" onClick={onRefresh}>
            {t('common.refresh')}
          </Button>
        ) : undefined
      }
    />
  );
}
