// The page text: a textarea with "[[" title completion from _wiki/titles — a
// listbox under the textarea (ArrowUp/ArrowDown, Enter or Tab to insert,
// Escape to close) — Ctrl+Enter to save, and images pasted or dropped into
// it uploaded to the drive's "wiki" folder, their Markdown put where the
// caret was (a placeholder shows while each one uploads).

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isImageFile, MAX_IMAGE_BYTES, uploadImage } from '../api/images';
import { SCOPE, titleCompletions } from '../api/wiki';
import { asApiError } from '../../../lib/errors';
import { useErrorText } from '../../../components/ErrorAlert';
import { completionTrigger, insertCompletion, type Trigger } from '../completion';

export function ContentEditor({
  db,
  value,
  onChange,
  onSave,
  error,
  label,
}: {
  db: string;
  value: string;
  onChange: (v: string) => void;
  onSave: () => void;
  error?: string | undefined;
  label: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [trigger, setTrigger] = useState<Trigger | null>(null);
  const [debounced, setDebounced] = useState('');
  const [active, setActive] = useState(0);
  const pendingCaret = useRef<number | null>(null);
  const latest = useRef(value);
  latest.current = value;
  const [uploading, setUploading] = useState(0);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const { message } = useErrorText();

  /** addImages uploads each image, a placeholder standing at the caret until its Markdown replaces it. */
  const addImages = (files: File[], at: number) => {
    const images = files.filter(isImageFile);
    if (images.length === 0) {
      if (files.length > 0) setUploadError(t('wiki.edit.imagesOnly'));
      return;
    }
    const big = images.find((f) => f.size > MAX_IMAGE_BYTES);
    if (big) {
      setUploadError(t('wiki.edit.imageTooLarge', { name: big.name || 'image' }));
      return;
    }
    setUploadError(null);
    const marks = images.map((f, i) => `![${t('wiki.edit.uploadingImage', { name: f.name || 'image' })}](#upload-${Date.now()}-${i})`);
    const text = latest.current;
    const insert = marks.join('\n');
    const next = text.slice(0, at) + insert + text.slice(at);
    pendingCaret.current = at + insert.length;
    onChange(next);
    latest.current = next;
    images.forEach((file, i) => {
      setUploading((n) => n + 1);
      uploadImage(db, file)
        .then(
          (r) => {
            const cur = latest.current;
            const mark = marks[i]!;
            const pos = cur.indexOf(mark);
            const replaced = pos >= 0 ? cur.slice(0, pos) + r.markdown + cur.slice(pos + mark.length) : `${cur}\n${r.markdown}`;
            latest.current = replaced;
            onChange(replaced);
          },
          (e: unknown) => {
            const cur = latest.current;
            const replaced = cur.replace(marks[i]!, '');
            latest.current = replaced;
            onChange(replaced);
            setUploadError(t('wiki.edit.imageFailed', { name: file.name || 'image', reason: message(asApiError(e).reason) }));
          },
        )
        .finally(() => setUploading((n) => n - 1));
    });
  };

  useEffect(() => {
    const h = setTimeout(() => setDebounced(trigger?.query ?? ''), 150);
    return () => clearTimeout(h);
  }, [trigger?.query]);
  const titles = useQuery({
    queryKey: [SCOPE, db, 'titles', debounced],
    queryFn: () => titleCompletions(db, debounced, 8),
    enabled: !!trigger && !!db,
    staleTime: 30_000,
  });
  const rows = trigger ? (titles.data?.rows ?? []) : [];
  const open = !!trigger && rows.length > 0;

  useEffect(() => {
    if (pendingCaret.current !== null && ref.current) {
      ref.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  }, [value]);

  const track = (text: string, caret: number) => {
    setTrigger(completionTrigger(text, caret));
    setActive(0);
  };

  const choose = (title: string) => {
    const el = ref.current;
    if (!el || !trigger) return;
    const r = insertCompletion(value, el.selectionStart, trigger, title);
    pendingCaret.current = r.caret;
    setTrigger(null);
    onChange(r.text);
    el.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSave();
      return;
    }
    if (!open) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => (a + 1) % rows.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (a - 1 + rows.length) % rows.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      choose(rows[Math.min(active, rows.length - 1)]!.title);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setTrigger(null);
    }
  };

  const listId = `${id}-titles`;
  const errId = `${id}-err`;
  return (
    <div className="amplify-flex amplify-field" style={{ flexDirection: 'column', gap: 'var(--amplify-space-xs)' }}>
      <label htmlFor={id} className="amplify-label">
        {label}
      </label>
      <div className="wiki-edit__textarea-wrap">
        <textarea
          id={id}
          ref={ref}
          className="amplify-textarea amplify-field-group__control wiki-edit__textarea"
          rows={18}
          value={value}
          data-testid="wiki-content"
          role="combobox"
          aria-multiline="true"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errId : `${id}-help`}
          onChange={(e) => {
            onChange(e.target.value);
            track(e.target.value, e.target.selectionStart);
          }}
          onKeyDown={onKeyDown}
          onClick={(e) => track(value, e.currentTarget.selectionStart)}
          onKeyUp={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') track(value, e.currentTarget.selectionStart);
          }}
          onBlur={() => setTimeout(() => setTrigger(null), 150)}
          onPaste={(e) => {
            const files = Array.from(e.clipboardData?.files ?? []);
            if (files.length === 0) return;
            e.preventDefault();
            addImages(files, e.currentTarget.selectionStart);
          }}
          onDragOver={(e) => {
            if (Array.from(e.dataTransfer?.types ?? []).includes('Files')) e.preventDefault();
          }}
          onDrop={(e) => {
            const files = Array.from(e.dataTransfer?.files ?? []);
            if (files.length === 0) return;
            e.preventDefault();
            addImages(files, e.currentTarget.selectionStart);
          }}
          aria-busy={uploading > 0}
        />
        {open ? (
          <ul id={listId} role="listbox" className="wiki-complete" aria-label={t('wiki.edit.titles')} data-testid="wiki-complete">
            {rows.map((r, i) => (
              <li
                key={r.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(r.title);
                }}
              >
                {r.title}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {uploading > 0 ? (
        <p className="amplify-text amplify-field__description" role="status" data-testid="wiki-image-uploading">
          {t('wiki.edit.uploadingImages', { count: uploading })}
        </p>
      ) : null}
      {uploadError ? (
        <p className="amplify-text amplify-field__error-message" role="alert" data-testid="wiki-image-error">
          {uploadError}
        </p>
      ) : null}
      {error ? (
        <p id={errId} className="amplify-text amplify-field__error-message" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-help`} className="amplify-text amplify-field__description">
          {t('wiki.edit.help')}
        </p>
      )}
    </div>
  );
}
