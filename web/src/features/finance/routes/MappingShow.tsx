// mappings#show: the rule in words and its parts, comments and history.

import { Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { DetailList, type DetailRow } from '../../../components/records/RecordShow';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { ruleInWords } from '../mapping-words';
import { mappingQuery } from '../api/mappings';
import { SCOPE } from '../api/types';
import { FinanceCrumbs } from '../components/FinanceCrumbs';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(mappingQuery(db, id));
  const m = q.data;
  const title = m?.description || t('finance.mappings.one');
  const rows: DetailRow[] = m
    ? [
        { key: 'rule', label: 'finance.mappings.rule', value: <Text className="rule-words" data-testid="rule-words">{ruleInWords(m, t)}</Text> },
        { key: 'description', label: 'fields.description', value: m.description ?? '' },
        { key: 'target', label: 'fields.target', value: <EnumBadge name="target" value={m.target} /> },
        { key: 'field_to_watch', label: 'fields.field_to_watch', value: m.field_to_watch ? t(`enums.mapping_field.${m.field_to_watch}`) : '' },
        { key: 'kind_of_watch', label: 'fields.kind_of_watch', value: m.kind_of_watch ? t(`enums.kind_of_watch.${m.kind_of_watch}`) : '' },
        { key: 'text_to_match', label: 'fields.text_to_match', value: m.text_to_match ?? '' },
        { key: 'kind_of_change', label: 'fields.kind_of_change', value: m.kind_of_change ? t(`enums.kind_of_change.${m.kind_of_change}`) : '' },
        { key: 'field_to_change', label: 'fields.field_to_change', value: m.field_to_change ? t(`enums.mapping_field.${m.field_to_change}`) : '' },
        { key: 'text_to_change', label: 'fields.text_to_change', value: m.text_to_change ?? '' },
        { key: 'order', label: 'fields.order', value: typeof m.order === 'number' ? String(m.order) : '' },
        { key: 'active', label: 'fields.active', value: m.active === false ? t('common.no') : t('common.yes') },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(m.created_at, i18n.language) },
      ]
    : [];
  return (
    <ShowFrame
      scope={SCOPE}
      itemType="Mapping"
      title={title}
      breadcrumbs={<FinanceCrumbs db={db} set="mappings" current={m ? title : undefined} />}
      doc={m}
      error={q.error}
      editTo={paths.edit(db, 'mappings', id)}
      afterDelete={paths.index(db, 'mappings')}
      details={<DetailList rows={rows} loading={q.isPending} />}
    />
  );
}
