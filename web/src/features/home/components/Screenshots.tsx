// Screenshots of the real app on the landing page, in the visitor's theme.
// The end-to-end run takes them (web/e2e) into public/screenshots/.

import { Grid, Heading, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../../lib/theme';

export const SCREENSHOTS = ['dashboard', 'admin', 'profile-tokens'] as const;

export function Screenshots() {
  const { t } = useTranslation();
  const { mode } = useThemeMode();
  return (
    <section id="screenshots" aria-labelledby="screenshots-title" className="landing-section">
      <Heading level={3} id="screenshots-title" marginBottom="large">
        {t('home.screenshots.title')}
      </Heading>
      <Grid templateColumns={{ base: '1fr', medium: 'repeat(3, 1fr)' }} gap="medium">
        {SCREENSHOTS.map((s) => (
          <figure key={s} className="screenshot">
            <a href={`/screenshots/${s}-${mode}.webp`} target="_blank" rel="noreferrer">
              <img
                src={`/screenshots/${s}-${mode}.webp`}
                // Three columns of about 25rem from 48em up: the 640-pixel copy
                // unless the screen is dense; the link opens the full one.
                srcSet={`/screenshots/${s}-${mode}-640.webp 640w, /screenshots/${s}-${mode}.webp 1280w`}
                sizes="(min-width: 48em) 25rem, 100vw"
                alt={t(`home.screenshots.${s}`)}
                loading="lazy"
                width={1280}
                height={800}
              />
            </a>
            <Text as="figcaption" fontSize="small" variation="secondary">
              {t(`home.screenshots.${s}`)}
            </Text>
          </figure>
        ))}
      </Grid>
    </section>
  );
}
