// /s/:token — the public status page a customer opens from the QR code on
// their receipt: the shop and its contacts, the ticket's number, equipment,
// status, its changes with dates and the expected date. No sign-in; in the
// shop's language when it set one, else the browser's.

import { Card, Flex, Heading, Link, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { Page } from '../../../components/Page';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { formatPhone, usePhoneLib } from '../../../lib/phones';
import { publicStatusQuery, type PublicShop } from '../api/servicedocs';
import { useErrorText } from '../../../components/ErrorAlert';
// The public pages show no desk crumbs, so they bring the desk's styles themselves.
import '../components/tickets.css';

/** usePublicLocale switches to the shop's language when it has one. */
export function usePublicLocale(locale: string | undefined) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if ((locale === 'en' || locale === 'pt-BR') && i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale, i18n]);
}

export function ShopCard({ shop }: { shop: PublicShop }) {
  const lib = usePhoneLib();
  return (
    <Card variation="outlined" data-testid="shop-card">
      <Heading level={4}>{shop.name}</Heading>
      {shop.phones.map((p, i) => (
        <Text key={i} fontSize="small" data-testid="shop-phone">
          {p.number ? (
            <Link href={`tel:${p.number}`}>{formatPhone(lib, p.number, shop.country ?? '')}</Link>
          ) : null}{' '}
          {p.description ? <span className="muted">· {p.description}</span> : null}
        </Text>
      ))}
      {shop.addresses.map((a, i) => (
        <Text key={i} fontSize="small">
          {[`${a.street ?? ''} ${a.number ?? ''}`.trim(), a.complement, a.neighborhood, a.city, a.state, a.zip_code].filter((x) => typeof x === 'string' && x.trim()).join(', ')}
        </Text>
      ))}
    </Card>
  );
}

export function PublicError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { message } = useErrorText();
  const e = asApiError(error);
  return (
    <EmptyState
      icon="search"
      title={e.status === 404 ? t('docs.public.goneTitle') : t('docs.public.errorTitle')}
      message={e.status === 404 ? t('docs.public.goneMessage') : message(e.reason)}
      testId="public-error"
    />
  );
}

export function Component() {
  const { t, i18n } = useTranslation();
  const { token = '' } = useParams();
  const q = useQuery(publicStatusQuery(token));
  usePublicLocale(q.data?.locale);
  const tk = q.data?.ticket;
  return (
    <Page title={tk ? t('docs.public.statusTitle', { number: tk.number }) : t('docs.public.statusHeading')} width="medium">
      {q.isError ? (
        <PublicError error={q.error} />
      ) : !q.data || !tk ? (
        <Text>{t('common.loading')}</Text>
      ) : (
        <Flex direction="column" gap="medium" data-testid="status-page">
          <ShopCard shop={q.data.shop} />
          <Card variation="elevated">
            <Flex direction="column" gap="small">
              <Heading level={3}>
                #{tk.number} {tk.title}
              </Heading>
              {tk.equipment ? <Text>{t('docs.public.equipment', { name: tk.equipment })}</Text> : null}
              <Flex alignItems="center" gap="small">
                <Text>{t('docs.public.currentStatus')}</Text>
                <EnumBadge name="status" value={tk.status} size="large" />
              </Flex>
              {tk.estimation ? <Text data-testid="status-estimation">{t('docs.public.expected', { date: formatDate(tk.estimation, i18n.language) })}</Text> : null}
            </Flex>
          </Card>
          <Card variation="outlined">
            <Heading level={5}>{t('docs.public.progress')}</Heading>
            <ol className="status-timeline" data-testid="status-timeline">
              {[...tk.history].reverse().map((h, i) => (
                <li key={i}>
                  <EnumBadge name="status" value={h.status} /> <span className="muted">{formatDateTime(h.at, i18n.language)}</span>
                </li>
              ))}
            </ol>
          </Card>
        </Flex>
      )}
    </Page>
  );
}
