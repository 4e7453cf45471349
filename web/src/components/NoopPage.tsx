// NoopPage: a page that shows nothing but keeps the frame (a public route and
// an account route use it: to warm a session, and as a harmless target).

import { Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Page } from './Page';

export function NoopPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('noop.title')}>
      <Text variation="secondary" data-testid="noop">
        {t('noop.message')}
      </Text>
    </Page>
  );
}
