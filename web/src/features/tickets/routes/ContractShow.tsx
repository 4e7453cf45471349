// contracts#show: the contract and its numbered terms, comments, history.

import { Card, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, type DetailRow } from '../../../components/records/RecordShow';
import { formatDateTime } from '../../../lib/format';
import { docQuery, type Contract } from '../api/servicedocs';
import { DocShow } from '../components/DocShow';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(docQuery<Contract>(db, id));
  const c = q.data;
  const title = c?.description?.split('\n')[0] || t('nav.contracts');
  const rows: DetailRow[] = c
    ? [
        { key: 'description', label: 'fields.description', value: <MultilineText text={c.description} /> },
        { key: 'customer_id', label: 'fields.customer_id', value: <RecordLink db={db} id={c.customer_id} /> },
        { key: 'payment_kind', label: 'fields.payment_kind', value: c.payment_kind ?? '' },
        { key: 'active', label: 'fields.active', value: t(`docs.activeValues.${c.active === false ? 'false' : 'true'}`) },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(c.created_at, i18n.language) },
      ]
    : [];
  return (
    <DocShow
      set="contracts"
      itemType="Contract"
      title={title}
      doc={c}
      error={q.error}
      details={
        <Flex direction="column" gap="medium">
          <DetailList rows={rows} loading={q.isPending} />
          {c ? (
            <Card variation="outlined" data-testid="contract-terms">
              <Text fontWeight="bold">{t('docs.terms')}</Text>
              {(c.items ?? []).length === 0 ? <Text variation="tertiary">{t('docs.noTerms')}</Text> : null}
              <ol className="contract-terms">
                {(c.items ?? []).map((it, i) => (
                  <li key={i} value={it.number ?? i + 1}>
                    <MultilineText text={it.content} />
                  </li>
                ))}
              </ol>
            </Card>
          ) : null}
        </Flex>
      }
    />
  );
}
