import { Flex, Link, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/RouterLink';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { SITE } from '../../lib/site';

export function Footer() {
  const { t, i18n } = useTranslation();
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
        <Text variation="secondary" fontSize="small">
          © {SITE.copyrightYears} {SITE.name} · {t('footer.release', { date: formatDate(SITE.releaseDate, i18n.language) })}
        </Text>
      </Flex>
    </footer>
  );
}
