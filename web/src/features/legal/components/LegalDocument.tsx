// A legal page: title, last-updated date and numbered sections, all from the
// i18n resources (legal.<doc>.sections is a list in both languages).

import { Heading, Text, View } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/Page';
import { AppLink } from '../../../components/RouterLink';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { SITE } from '../../../lib/site';

export type LegalDoc = 'terms' | 'privacy' | 'refund' | 'disclaimer';

interface Section {
  title: string;
  body: string[];
}

const UPDATED = '2025-10-15';

export function LegalDocument({ doc }: { doc: LegalDoc }) {
  const { t, i18n } = useTranslation();
  const sections = t(`legal.${doc}.sections`, { returnObjects: true, email: SITE.contactEmail }) as unknown;
  const list = Array.isArray(sections) ? (sections as Section[]) : [];
  const others: LegalDoc[] = (['terms', 'privacy', 'refund', 'disclaimer'] as const).filter((d) => d !== doc);
  return (
    <Page title={t(`legal.${doc}.title`)} width="medium">
      <Text variation="secondary" marginBottom="large">
        {t('legal.updated', { date: formatDate(UPDATED, i18n.language) })}
      </Text>
      <Text marginBottom="large">{t(`legal.${doc}.intro`, { email: SITE.contactEmail })}</Text>
      {list.map((s, i) => (
        <View as="section" key={s.title} marginBottom="large">
          <Heading level={4} marginBottom="small">
            {i + 1}. {s.title}
          </Heading>
          {(Array.isArray(s.body) ? s.body : [String(s.body)]).map((p) => (
            <Text key={p} marginBottom="small">
              {p}
            </Text>
          ))}
        </View>
      ))}
      <Text variation="secondary">
        {t('legal.seeAlso')}{' '}
        {others.map((d, i) => (
          <span key={d}>
            {i > 0 ? ' · ' : null}
            <AppLink to={paths[d]()}>{t(`legal.${d}.title`)}</AppLink>
          </span>
        ))}
      </Text>
    </Page>
  );
}
