// handbooks#new and handbooks#edit: title, categories, content type and the
// text with "[[" completion beside a live preview (debounced POST
// _wiki/preview; stacked on narrow screens). Ctrl+Enter saves. A stale _rev
// (409) opens the conflict view; the server's field errors go under the fields.

import { Button, Flex, Heading, SelectField, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { PageLoader } from '../../../components/PageLoader';
import { getDoc, postDoc, putDoc } from '../../../lib/couch';
import { asApiError, clientValidationError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { categoriesOf, type Handbook, previewHtml, SCOPE } from '../api/wiki';
import { ConflictView } from '../components/ConflictView';
import { ContentEditor } from '../components/ContentEditor';
import { HighlightCss } from '../components/HighlightCss';
import '../components/wiki.css';

interface Values {
  title: string;
  categories: string;
  content: string;
  content_type: string;
}

const CONTENT_TYPES = ['markdown', 'html', 'text'] as const;

export function Component() {
  const { account_id: db = '', record_id: id } = useParams();
  const q = useQuery({ queryKey: [SCOPE, db, 'doc', id], queryFn: () => getDoc<Handbook>(db, id!), enabled: !!id, staleTime: 0 });
  const { t } = useTranslation();
  if (id && q.error) {
    const e = asApiError(q.error);
    return (
      <Page title={t('wiki.edit.editTitle')}>
        {e.status === 404 ? <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} /> : <ErrorAlert error={e} />}
      </Page>
    );
  }
  if (id && !q.data) return <PageLoader />;
  return <PageForm key={id ?? 'new'} db={db} doc={q.data} />;
}

function PageForm({ db, doc }: { db: string; doc: Handbook | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const [values, setValues] = useState<Values>(() => ({
    title: doc?.title ?? params.get('title') ?? '',
    categories: categoriesOf(doc?.categories ?? params.get('category') ?? '').join(', '),
    content: doc?.content ?? '',
    content_type: doc?.content_type ?? 'markdown',
  }));
  const [base, setBase] = useState<Handbook | undefined>(doc);
  const [conflict, setConflict] = useState(false);
  const set = (k: keyof Values) => (v: string) => setValues((s) => ({ ...s, [k]: v }));

  // live preview, debounced
  const [previewSrc, setPreviewSrc] = useState({ content: values.content, type: values.content_type });
  useEffect(() => {
    const h = setTimeout(() => setPreviewSrc({ content: values.content, type: values.content_type }), 400);
    return () => clearTimeout(h);
  }, [values.content, values.content_type]);
  const preview = useQuery({
    queryKey: [SCOPE, db, 'preview', previewSrc.type, previewSrc.content],
    queryFn: () => previewHtml(db, previewSrc.content, previewSrc.type),
    enabled: !!db && previewSrc.content.trim() !== '',
    placeholderData: (prev) => prev,
    staleTime: 60_000,
  });

  const save = useMutation({
    mutationFn: async (over?: { current: Handbook; content: string }) => {
      if (!values.title.trim()) throw clientValidationError({ title: ['cant-be-blank'] });
      const body = {
        klass: 'Handbook',
        title: values.title.trim(),
        categories: categoriesOf(values.categories),
        content: over ? over.content : values.content,
        content_type: values.content_type,
      };
      const from = over?.current ?? base;
      if (from) return putDoc(db, { ...from, ...body, _id: from._id, _rev: from._rev });
      return postDoc(db, body);
    },
    onSuccess: async (r) => {
      setConflict(false);
      await qc.invalidateQueries({ queryKey: [SCOPE, db] });
      await qc.invalidateQueries({ queryKey: ['history', db, r.id] });
      navigate(paths.show(db, 'handbooks', r.id));
    },
    onError: (e) => {
      if (base && asApiError(e).status === 409) setConflict(true);
    },
  });
  const error = save.error ? asApiError(save.error) : null;
  const fieldError = useFieldError(error);
  const submit = () => {
    if (!save.isPending && !conflict) save.mutate(undefined);
  };
  const titleRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!doc) titleRef.current?.focus();
  }, [doc]);

  const title = doc ? t('wiki.edit.editTitle') : t('wiki.edit.newTitle');
  const cancelTo = doc ? paths.show(db, 'handbooks', doc._id) : paths.wiki();
  return (
    <Page title={title} breadcrumbs={<Link to={paths.wiki()}>{t('nav.wiki')}</Link>}>
      <HighlightCss db={db} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onKeyDown={(e) => {
          // Ctrl+Enter saves from any field (the text area handles its own).
          if (e.defaultPrevented || e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
          e.preventDefault();
          submit();
        }}
        data-testid="wiki-form"
        noValidate
      >
        <Flex direction="column" gap="medium">
          {error && !(error.status === 409 && conflict) ? <ErrorAlert error={error} onDismiss={() => save.reset()} /> : null}
          {conflict && base ? (
            <ConflictView
              db={db}
              id={base._id}
              rev={base._rev}
              mine={values.content}
              busy={save.isPending}
              onTakeTheirs={(current) => {
                setBase(current);
                setValues({
                  title: current.title,
                  categories: categoriesOf(current.categories).join(', '),
                  content: current.content ?? '',
                  content_type: current.content_type ?? 'markdown',
                });
                setConflict(false);
                save.reset();
              }}
              onKeepMine={(current, content) => {
                setBase(current);
                set('content')(content);
                save.mutate({ current, content });
              }}
            />
          ) : null}
          <TextField
            ref={titleRef}
            label={t('wiki.edit.title')}
            name="title"
            value={values.title}
            onChange={(e) => set('title')(e.target.value)}
            isRequired
            {...errorOf(fieldError('title'))}
            data-testid="wiki-title"
          />
          <Flex gap="medium" wrap="wrap">
            <TextField
              flex="1 1 16rem"
              label={t('wiki.edit.categories')}
              descriptiveText={t('wiki.edit.categoriesHelp')}
              name="categories"
              value={values.categories}
              onChange={(e) => set('categories')(e.target.value)}
              {...errorOf(fieldError('categories'))}
              data-testid="wiki-categories-input"
            />
            <SelectField
              flex="0 1 12rem"
              label={t('wiki.edit.contentType')}
              name="content_type"
              value={values.content_type}
              onChange={(e) => set('content_type')(e.target.value)}
              {...errorOf(fieldError('content_type'))}
            >
              {CONTENT_TYPES.map((c) => (
                <option key={c} value={c}>
                  {t(`wiki.edit.types.${c}`)}
                </option>
              ))}
            </SelectField>
          </Flex>
          <div className="wiki-edit">
            <ContentEditor db={db} label={t('wiki.edit.content')} value={values.content} onChange={set('content')} onSave={submit} error={fieldError('content')} />
            <section aria-labelledby="wiki-preview-h" aria-busy={preview.isFetching}>
              <Heading level={3} id="wiki-preview-h" fontSize="medium">
                {t('wiki.edit.preview')}
              </Heading>
              {preview.error ? <ErrorAlert error={asApiError(preview.error)} /> : null}
              {/* html is sanitised by the server */}
              <div className="wiki-preview wiki-html" data-testid="wiki-preview" dangerouslySetInnerHTML={{ __html: values.content.trim() ? (preview.data?.html ?? '') : '' }} />
              {preview.data && preview.data.wanted.length > 0 ? (
                <p className="amplify-text amplify-field__description">{t('wiki.edit.wanted', { titles: preview.data.wanted.join(', ') })}</p>
              ) : null}
            </section>
          </div>
          <Flex gap="small" wrap="wrap">
            <Button type="submit" variation="primary" isLoading={save.isPending} isDisabled={conflict} data-testid="wiki-save" aria-keyshortcuts="Control+Enter">
              {t('wiki.edit.save')}
            </Button>
            <Button as={Link} to={cancelTo}>
              {t('wiki.edit.cancel')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Page>
  );
}

