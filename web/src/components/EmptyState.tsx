import { Flex, Heading, Text } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { AppIcon, type IconName } from './icons';

/** EmptyState: an icon, a title, a line of help and an optional action. (With a primary link onwards: EmptyStateNext.) */
export function EmptyState({
  icon = 'info',
  title,
  message,
  action,
  testId,
}: {
  icon?: IconName;
  title: string;
  message?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <Flex
      direction="column"
      alignItems="center"
      justifyContent="center"
      gap="small"
      padding="xl"
      textAlign="center"
      className="empty-state"
      data-testid={testId}
    >
      <span className="empty-state__icon">
        <AppIcon name={icon} size={36} />
      </span>
      <Heading level={4}>{title}</Heading>
      {message ? <Text variation="secondary">{message}</Text> : null}
      {action}
    </Flex>
  );
}
