// Add or edit a bookmark in a modal: address (http/https), title,
// description, tags (commas) and starred; the server's errors under the fields.
// The title is read from the page (the server fetches it through the reader's
// fetch guard) when the address is left with the title empty, or on "Fetch
// title"; when the server cannot fetch titles the button goes and the title
// is typed. A page without a usable title says why under the title field.

import { Button, CheckboxField, Flex, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { asApiError, clientValidationError } from '../../../lib/errors';
import { type Bookmark, type BookmarkValues, fetchTitle, isWebUrl, saveBookmark, SCOPE, tagList } from '../api/bookmarks';

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
  const [canFetch, setCanFetch] = useState(true);
  const title = useMutation({
    mutationFn: (url: string) => fetchTitle(db, url.trim()),
    onSuccess: (r, url) => setV((s) => (s.url.trim() === url.trim() ? { ...s, title: r.title } : s)),
    onError: (e) => {
      if (asApiError(e).status === 404) setCanFetch(false);
    },
  });
  const titleError = title.error ? asApiError(title.error) : null;
  const titleFe = useFieldError(titleError && titleError.status === 422 ? titleError : null);
  const titleNote = titleError && titleError.status !== 404 ? t('links.form.titleNotFetched', { reason: titleFe('url') ?? titleError.reason }) : undefined;
  const lookUp = (url: string) => {
    if (canFetch && isWebUrl(url) && !title.isPending) title.mutate(url);
  };
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
            onBlur={(e) => {
              if (!v.title.trim() && e.target.value.trim() !== (doc?.url ?? '')) lookUp(e.target.value);
            }}
            isRequired
            autoFocus
            {...errorOf(fe('url'))}
            data-testid="bookmark-url"
          />
          <TextField
            label={t('links.form.title')}
            value={v.title}
            onChange={(e) => set('title', e.target.value)}
            {...errorOf(fe('title'))}
            descriptiveText={title.isPending ? t('links.form.fetchingTitle') : titleNote}
            data-testid="bookmark-title"
            outerEndComponent={
              canFetch ? (
                <Button onClick={() => lookUp(v.url)} isDisabled={!isWebUrl(v.url)} isLoading={title.isPending} loadingText={t('links.form.fetchingTitle')} data-testid="bookmark-fetch-title">
                  {t('links.form.fetchTitle')}
                </Button>
              ) : undefined
            }
          />
          <TextAreaField label={t('links.form.description')} rows={3} value={v.description} onChange={(e) => set('description', e.target.value)} hasError={!!fe('description')} errorMessage={fe('description')} />
          <TextField label={t('links.form.tags')} descriptiveText={t('links.form.tagsHelp')} value={v.tags} onChange={(e) => set('tags', e.target.value)} hasError={!!fe('tags')} errorMessage={fe('tags')} />
          <CheckboxField label={t('links.form.starred')} name="starred" checked={v.starred} onChange={(e) => set('starred', e.target.checked)} />
        </Flex>
      </form>
    </Modal>
  );
}
