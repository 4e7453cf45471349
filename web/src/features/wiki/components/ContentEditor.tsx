// The page text: a textarea with "[[" title completion from _wiki/titles — a
// listbox under the textarea (ArrowUp/ArrowDown, Enter or Tab to insert,
// Escape to close) — and Ctrl+Enter to save.

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SCOPE, titleCompletions } from '../api/wiki';
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
