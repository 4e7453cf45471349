// icons: every icon the app uses, with its name, to pick from before adding one.

import { Card, Grid, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon, ICON_NAMES } from '../../../components/icons';
import { Page } from '../../../components/Page';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('icons.title')}>
      <Text variation="secondary" marginBottom="medium">
        {t('icons.message', { count: ICON_NAMES.length })}
      </Text>
      <Grid templateColumns="repeat(auto-fill, minmax(8rem, 1fr))" gap="small" as="ul" className="icon-grid">
        {ICON_NAMES.map((name) => (
          <Card as="li" key={name} variation="outlined" className="icon-grid__item" data-testid={`icon-${name}`}>
            <AppIcon name={name} size={28} />
            <Text as="code" fontSize="small">
              {name}
            </Text>
          </Card>
        ))}
      </Grid>
    </Page>
  );
}
