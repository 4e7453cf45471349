import { Card, Grid, Heading, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon, type IconName } from '../../../components/icons';

const FEATURES: Array<{ key: string; icon: IconName }> = [
  { key: 'ticket', icon: 'ticket' },
  { key: 'customers', icon: 'customer' },
  { key: 'receipts', icon: 'estimate' },
  { key: 'finance', icon: 'wallet' },
  { key: 'reader', icon: 'reader' },
  { key: 'notes', icon: 'wiki' },
  { key: 'disk', icon: 'disk' },
  { key: 'groups', icon: 'groups' },
  { key: 'api', icon: 'key' },
];

export function Features() {
  const { t } = useTranslation();
  return (
    <section id="features" aria-labelledby="features-title" className="landing-section">
      <Heading level={3} id="features-title" marginBottom="large">
        {t('home.features.title')}
      </Heading>
      <Grid templateColumns={{ base: '1fr', medium: 'repeat(2, 1fr)', large: 'repeat(3, 1fr)' }} gap="medium">
        {FEATURES.map((f) => (
          <Card key={f.key} variation="outlined" className="feature-card">
            <span className="feature-card__icon">
              <AppIcon name={f.icon} size={24} />
            </span>
            <Heading level={5} marginBlock="small">
              {t(`home.features.${f.key}.title`)}
            </Heading>
            <Text variation="secondary">{t(`home.features.${f.key}.text`)}</Text>
          </Card>
        ))}
      </Grid>
    </section>
  );
}
