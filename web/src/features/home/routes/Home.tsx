// home (SPEC §2): the landing page — hero, features, pricing from the price
// list, FAQ and the legal pages — with the "select a group profile" warning
// on top when the user must pick a Group.

import { Flex, Heading, Text } from '@aws-amplify/ui-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/Page';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { useActiveDb } from '../../../lib/active-db';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useMultipleAccounts } from '../../../lib/startup';
import { Faq } from '../components/Faq';
import { Features } from '../components/Features';
import { Pricing } from '../components/Pricing';
import { Screenshots } from '../components/Screenshots';

// Only a signed-in user with several Groups sees it: a visitor's first load goes without.
const SelectGroupWarning = lazy(() => import('../components/SelectGroupWarning').then((m) => ({ default: m.SelectGroupWarning })));

export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const multiple = useMultipleAccounts();
  const activeDb = useActiveDb();
  return (
    <Page title={t('home.title')} hideTitle>
      {session && multiple ? (
        <Suspense fallback={null}>
          <SelectGroupWarning userId={session.userId} />
        </Suspense>
      ) : null}
      <section className="hero" aria-labelledby="hero-title">
        <Heading level={1} id="hero-title">
          {t('home.hero.title')}
        </Heading>
        <Text fontSize="large" variation="secondary" marginBlock="medium">
          {t('home.hero.subtitle')}
        </Text>
        <Flex gap="small" wrap="wrap">
          {session ? (
            activeDb || !multiple ? (
              <ButtonLink to={activeDb ? paths.dashboard(activeDb) : paths.app()} variation="primary" size="large">
                {t('home.hero.open')}
              </ButtonLink>
            ) : null
          ) : (
            <>
              <ButtonLink to={paths.register()} variation="primary" size="large">
                {t('home.hero.start')}
              </ButtonLink>
              <ButtonLink to={paths.login()} size="large">
                {t('nav.login')}
              </ButtonLink>
            </>
          )}
        </Flex>
      </section>
      <Features />
      <Screenshots />
      <Pricing />
      <Faq />
      <section aria-labelledby="legal-title" className="landing-section">
        <Heading level={3} id="legal-title" marginBottom="small">
          {t('home.legal.title')}
        </Heading>
        <Flex gap="medium" wrap="wrap">
          <AppLink to={paths.terms()}>{t('legal.terms.title')}</AppLink>
          <AppLink to={paths.privacy()}>{t('legal.privacy.title')}</AppLink>
          <AppLink to={paths.refund()}>{t('legal.refund.title')}</AppLink>
          <AppLink to={paths.disclaimer()}>{t('legal.disclaimer.title')}</AppLink>
        </Flex>
      </section>
    </Page>
  );
}
