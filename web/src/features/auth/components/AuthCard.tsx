import { Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../../components/Page';

/** AuthCard: the centred card the sign-in, sign-up and link screens share. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Flex justifyContent="center" padding={{ base: 'small', medium: 'xl' }}>
      <Card variation="outlined" className="auth-card">
        <Heading level={3} marginBottom="xs">
          {title}
        </Heading>
        {subtitle ? (
          <Text variation="secondary" marginBottom="medium">
            {subtitle}
          </Text>
        ) : null}
        {children}
        {footer ? (
          <Flex direction="column" gap="xs" marginTop="large" className="auth-card__footer">
            {footer}
          </Flex>
        ) : null}
      </Card>
    </Flex>
  );
}
