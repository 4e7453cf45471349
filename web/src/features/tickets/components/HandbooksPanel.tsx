// The handbooks of a ticket category (procedures, makers' manuals) on the
// desk's screens: links to each page, to the rest of the category in the wiki
// and to a new page filed under it. A wiki that does not answer hides the panel.

import { Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../../components/records/RecordShow';
import { AppLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import { handbooksQuery } from '../api/handbooks';

export function HandbooksPanel({ db, category }: { db: string; category: string }) {
  const { t } = useTranslation();
  const q = useQuery(handbooksQuery(db, category));
  if (!category.trim() || q.isError) return null;
  const rows = q.data?.rows ?? [];
  const more = (q.data?.total ?? 0) - rows.length;
  const newTo = `${paths.create(db, 'handbooks')}?category=${encodeURIComponent(category)}`;
  return (
    <Panel title={t('tickets.handbooks.title', { category })} icon="info" testId="handbooks-panel">
      {q.isPending ? <Loader variation="linear" /> : null}
      {q.data && rows.length === 0 ? <Text color="font.secondary">{t('tickets.handbooks.none')}</Text> : null}
      {rows.length > 0 ? (
        <ul className="handbooks-list">
          {rows.map((r) => (
            <li key={r.id}>
              <AppLink to={paths.show(db, 'handbooks', r.id)}>{r.title}</AppLink>
            </li>
          ))}
        </ul>
      ) : null}
      <Flex gap="medium" wrap="wrap" marginTop="xs">
        {more > 0 ? <AppLink to={`${paths.wiki()}?category=${encodeURIComponent(category)}`}>{t('tickets.handbooks.more', { count: more })}</AppLink> : null}
        <Link to={newTo} className="amplify-link" data-testid="handbooks-new">
          {t('tickets.handbooks.new')}
        </Link>
      </Flex>
    </Panel>
  );
}
