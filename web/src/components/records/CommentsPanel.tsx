// CommentsPanel: the comments of a record (klass Comment, item_id = the
// record's id, item_type = its klass) with a form to add one. The server
// stamps the author and date and checks the record is of the same Group.

import { Button, Flex, TextAreaField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { postDoc } from '../../lib/couch';
import { ownWrite, refetchOwnWrite } from '../../lib/live-deps';
import { asApiError, clientValidationError, type ApiError } from '../../lib/errors';
import { ErrorAlert, errorOf, useFieldError } from '../ErrorAlert';
import { CommentsList, commentsQuery, withNewComment, type CommentDoc } from './CommentsList';

export const COMMENT_MAX = 10_000;

export function CommentsPanel({ db, itemId, itemType, readOnly = false }: { db: string; itemId: string; itemType: string; readOnly?: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [content, setContent] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const fieldError = useFieldError(error);
  const add = useMutation({
    mutationFn: (text: string) => postDoc(db, { klass: 'Comment', content: text, item_id: itemId, item_type: itemType }),
    onSuccess: (res) => {
      setContent('');
      setError(null);
      // The record's own history has no entry for its comments (each comment has its own). The save's answer
      // is the comment as stored: it heads the list without reading it again.
      const key = commentsQuery(db, itemId).queryKey;
      const list = qc.getQueryData<CommentDoc[]>(key);
      if (res.doc && list) qc.setQueryData(key, withNewComment(list, res.doc as CommentDoc));
      void refetchOwnWrite(qc, ownWrite(db, res.id, 'Comment', false, res.rev), res.doc && list ? [] : [key], res.doc);
    },
    onError: (e) => setError(asApiError(e)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = content.trim();
    if (!text) {
      setError(clientValidationError({ content: ["can't be blank"] }));
      return;
    }
    add.mutate(text);
  };
  return (
    <Flex direction="column" gap="small" className="comments-panel">
      <CommentsList db={db} itemId={itemId} />
      {readOnly ? null : (
        <form onSubmit={submit} noValidate aria-label={t('records.addComment')} data-testid="comment-form">
          <Flex direction="column" gap="xs">
            <ErrorAlert error={error && !error.fields.content ? error : null} onDismiss={() => setError(null)} />
            <TextAreaField
              label={t('records.newComment')}
              name="content"
              rows={3}
              maxLength={COMMENT_MAX}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
              }}
              {...errorOf(fieldError('content'))}
              descriptiveText={t('records.commentHint')}
            />
            <Flex justifyContent="flex-end">
              <Button type="submit" size="small" variation="primary" isLoading={add.isPending} loadingText={t('common.saving')}>
                {t('records.addComment')}
              </Button>
            </Flex>
          </Flex>
        </form>
      )}
    </Flex>
  );
}
