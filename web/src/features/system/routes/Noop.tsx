// noop: a public page that shows nothing but keeps the frame.

import { Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/Page';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('noop.title')}>
      <Text variation="secondary" data-testid="noop">
        {t('noop.message')}
      </Text>
    </Page>
  );
}
