import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * RouteError catches what a screen throws (and failed chunk loads after a
 * deploy) instead of a blank page.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : null;
  const chunk = error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
  return (
    <Flex direction="column" alignItems="center" padding="xxl" gap="medium" role="alert" data-testid="route-error">
      <Heading level={2}>{status === 404 ? t('errors.titles.not_found') : t('routeError.title')}</Heading>
      <Text variation="secondary">{chunk ? t('routeError.chunk') : t('routeError.message')}</Text>
      <Flex gap="small">
        <Button variation="primary" onClick={() => window.location.reload()}>
          {t('version.reload')}
        </Button>
        <Button onClick={() => window.location.assign('/')}>{t('routeError.home')}</Button>
      </Flex>
    </Flex>
  );
}
