// categories#show: the category's chip, its checklist, its tickets, and the
// wiki's handbooks filed under its name (procedures for this kind of job),
// with comments and history. "e" edits.

import { Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { DetailList, Panel, type DetailRow } from '../../../components/records/RecordShow';
import { getDoc } from '../../../lib/couch';
import { paths } from '../../../lib/paths';
import type { Category } from '../api/types';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { HandbooksPanel } from '../components/HandbooksPanel';
import { RelatedTickets } from '../components/RelatedTickets';
import { checklistLines } from './CategoryForm';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery({ queryKey: ['tickets', db, 'category', id], queryFn: () => getDoc<Category>(db, id), retry: false });
  const c = q.data;
  const name = c?.name ?? '';
  const title = name || t('nav.categories');
  const lines = checklistLines(c?.checklist);
  const rows: DetailRow[] = c
    ? [
        {
          key: 'name',
          label: 'fields.name',
          value: (
            <span className="category-chip" data-testid="category-chip">
              <span className="category-chip__dot" style={{ background: c.color || '#64748b' }} aria-hidden="true" />
              {name}
            </span>
          ),
        },
        { key: 'label', label: 'fields.label', value: c.label ?? '' },
        { key: 'active', label: 'fields.active', value: c.active === false ? t('common.no') : t('common.yes') },
      ]
    : [];
  return (
    <ShowFrame
      scope="tickets"
      itemType="Category"
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="categories" current={c ? title : undefined} />}
      doc={c}
      error={q.error}
      editTo={paths.edit(db, 'categories', id)}
      afterDelete={paths.index(db, 'categories')}
      details={
        <Flex direction="column" gap="medium">
          <DetailList rows={rows} loading={q.isPending} />
          {c ? (
            <Panel title={t('tickets.checklist')} icon="info" testId="category-checklist">
              {lines.length === 0 ? (
                <Text color="font.secondary">{t('tickets.handbooks.noChecklist')}</Text>
              ) : (
                <ol className="category-checklist">
                  {lines.map((l, i) => (
                    <li key={i}>{l}</li>
                  ))}
                </ol>
              )}
            </Panel>
          ) : null}
          {c ? <HandbooksPanel db={db} category={name} /> : null}
          {c ? (
            <RelatedTickets db={db} field="category_id" id={id} testId="category-tickets" />
          ) : null}
        </Flex>
      }
    />
  );
}
