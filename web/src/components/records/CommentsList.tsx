// The comments panel of a record screen: the Comment docs about the record
// (item_id), newest first, each linking to comments#show.

import { Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { find, type Doc, type Stamp } from '../../lib/couch';
import { liveKlasses } from '../../lib/live-deps';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { AppLink } from '../RouterLink';

export interface CommentDoc extends Doc {
  content?: string;
  date?: string;
  user?: Stamp;
  item_id?: string;
}

/** How many of a record's comments the panel shows, newest first. */
const COMMENTS_SHOWN = 50;

export const commentsQuery = (db: string, itemId: string) => ({
  queryKey: ['comments', db, itemId],
  queryFn: () =>
    find<CommentDoc>(db, { selector: { klass: 'Comment', item_id: itemId }, sort: [{ created_at: 'desc' }], limit: COMMENTS_SHOWN }).then(
      (r) => r.docs ?? [],
    ),
  meta: liveKlasses('Comment'),
});

/** withNewComment is the list after the comment just saved (as stored): it heads a list newest first. */
export const withNewComment = (list: readonly CommentDoc[], saved: CommentDoc): CommentDoc[] =>
  [saved, ...list.filter((c) => c._id !== saved._id)].slice(0, COMMENTS_SHOWN);

export function CommentsList({ db, itemId }: { db: string; itemId: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ ...commentsQuery(db, itemId), enabled: !!db && !!itemId });
  if (q.isPending) return <Placeholder />;
  const comments = q.data ?? [];
  if (q.isError || comments.length === 0) return <Text variation="secondary">{t('records.noComments')}</Text>;
  return (
    <Flex as="ul" direction="column" gap="small" className="comment-list" data-testid="comment-list">
      {comments.map((c) => (
        <li key={c._id}>
          <Text fontSize="small" variation="secondary">
            <AppLink to={paths.show(db, 'comments', c._id)}>{c.user?.label || c.created_by?.label || t('timeline.someone')}</AppLink>{' '}
            · {formatDateTime(c.date || c.created_at, i18n.language)}
          </Text>
          <Text whiteSpace="pre-wrap">{c.content}</Text>
        </li>
      ))}
    </Flex>
  );
}
