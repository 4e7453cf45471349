// The shell's plan-limit banners (issue 15, SPEC §4 and §9): a free Group
// over its 1,000 records gets a notice counting down to view-only, and a
// view-only Group a banner saying that writes will fail and how out (delete
// records or upgrade). Read from GET /api/{db}/_limits; nothing shows while
// it loads or when it cannot be read.

import { Alert, Flex, Text, View } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { daysLeft, limitsQuery } from '../lib/limits';
import { paths } from '../lib/paths';
import { formatDate, formatNumber } from '../lib/format';
import { AppLink } from './RouterLink';

export function LimitsBanner({ db, now }: { db: string | null; now?: Date }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ ...limitsQuery(db ?? ''), enabled: !!db && db.startsWith('acc-') });
  const l = q.data;
  if (!db || !l) return null;
  const lang = i18n.language;
  const records = formatNumber(l.records, lang, 0);
  const limit = formatNumber(l.record_limit || 1000, lang, 0);
  const ways = (
    <Flex as="span" gap="medium" wrap="wrap" marginTop="xxs">
      <AppLink to={paths.billing()}>{t('limits.upgrade')}</AppLink>
      <AppLink to={paths.usage()}>{t('limits.seeUsage')}</AppLink>
    </Flex>
  );
  if (l.view_only) {
    return (
      <View className="shell-error">
        <Alert variation="error" heading={t('limits.viewOnly.title')} data-testid="view-only-banner" role="alert">
          <Text as="span">{t('limits.viewOnly.message', { records, limit })}</Text>
          {ways}
        </Alert>
      </View>
    );
  }
  if (!l.over_since) return null;
  const days = daysLeft(l.view_only_at, now);
  const when = formatDate(l.view_only_at, lang);
  return (
    <View className="shell-error">
      <Alert variation="warning" heading={t('limits.over.title')} data-testid="over-limit-banner">
        <Text as="span">
          {t('limits.over.message', { records, limit })}{' '}
          {days === null ? null : days < 2 ? t('limits.over.soon', { date: when }) : t('limits.over.countdown', { count: days, date: when })}
        </Text>
        {ways}
      </Alert>
    </View>
  );
}
