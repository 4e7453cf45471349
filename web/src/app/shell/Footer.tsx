import { Flex, Link, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/RouterLink';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { SITE } from '../../lib/site';
import { release } from '../../lib/version';

export function Footer() {
  const { t, i18n } = useTranslation();
  // The real build, not a date typed into the code (issue 22 item 15).
  const built = release();
  return (
    <footer className="app-footer">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small" className="app-footer__inner">
        <Flex gap="medium" wrap="wrap" as="nav" aria-label={t('footer.label')}>
          <Link href={SITE.docsUrl} isExternal>
            {t('footer.documentation')}
          </Link>
          <Link href={`mailto:${SITE.contactEmail}`}>{t('footer.contact')}</Link>
          <AppLink to={paths.terms()}>{t('footer.terms')}</AppLink>
          <AppLink to={paths.privacy()}>{t('footer.privacy')}</AppLink>
        </Flex>
        <Text variation="secondary" fontSize="small" data-testid="footer-release">
          © {SITE.since}–{new Date().getFullYear()} {SITE.name}
          {built ? ` · ${t('footer.release', { version: built.version, date: formatDate(built.date, i18n.language) })}` : ` · ${t('footer.development')}`}
        </Text>
      </Flex>
    </footer>
  );
}
