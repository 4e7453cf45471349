// Add or edit a bookmark in a modal: address (http/https), title,
// description, tags (commas) and starred; the server's errors under the fields.

import { Button, CheckboxField, Flex, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { asApiError, clientValidationError } from '../../../lib/errors';
import { type Bookmark, type BookmarkValues, isWebUrl, saveBookmark, SCOPE, tagList } from '../api/bookmarks';

export function BookmarkForm({ db, doc, open, onClose }: { db: string; doc?: Bookmark | undefined; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [v, setV] = useState<BookmarkValues>(() => ({
    url: doc?.url ?? '',
    title: doc?.title ?? '',
    description: doc?.description ?? '',
    tags: tagList(doc?.tags).join(', '),
    starred: !!doc?.starred,
  }));
  const save = useMutation({
    mutationFn: () => {
      if (!isWebUrl(v.url)) throw clientValidationError({ url: ['must-be-an-http-or-https-address'] });
      return saveBookmark(db, v, doc);
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: [SCOPE, db] });
      onClose();
    },
  });
  const error = save.error ? asApiError(save.error) : null;
  const fe = useFieldError(error);
  const set = <K extends keyof BookmarkValues>(k: K, val: BookmarkValues[K]) => setV((s) => ({ ...s, [k]: val }));
  return (
    <Modal
      open={open}
      title={doc ? t('links.form.editTitle') : t('links.form.newTitle')}
      onClose={onClose}
      closeLabel={t('links.form.cancel')}
      footer={
        <Flex gap="small" justifyContent="flex-end">
          <Button onClick={onClose}>{t('links.form.cancel')}</Button>
          <Button variation="primary" type="submit" form="bookmark-form" isLoading={save.isPending} data-testid="bookmark-save">
            {t('links.form.save')}
          </Button>
        </Flex>
      }
    >
      <form
        id="bookmark-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Flex direction="column" gap="small">
          {error ? <ErrorAlert error={error} showFields={Object.keys(error.fields).some((f) => !['url', 'title', 'description', 'tags'].includes(f))} /> : null}
          <TextField
            label={t('links.form.url')}
            type="url"
            inputMode="url"
            value={v.url}
            onChange={(e) => set('url', e.target.value)}
            isRequired
            autoFocus
            hasError={!!fe('url')}
            errorMessage={fe('url')}
            data-testid="bookmark-url"
          />
          <TextField label={t('links.form.title')} value={v.title} onChange={(e) => set('title', e.target.value)} hasError={!!fe('title')} errorMessage={fe('title')} />
          <TextAreaField label={t('links.form.description')} rows={3} value={v.description} onChange={(e) => set('description', e.target.value)} hasError={!!fe('description')} errorMessage={fe('description')} />
          <TextField label={t('links.form.tags')} descriptiveText={t('links.form.tagsHelp')} value={v.tags} onChange={(e) => set('tags', e.target.value)} hasError={!!fe('tags')} errorMessage={fe('tags')} />
          <CheckboxField label={t('links.form.starred')} name="starred" checked={v.starred} onChange={(e) => set('starred', e.target.checked)} />
        </Flex>
      </form>
    </Modal>
  );
}
