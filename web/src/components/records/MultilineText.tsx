// MultilineText: long text shown with its line breaks kept (React escapes
// it, so nothing in it is ever markup), optionally clamped with a
// show-more toggle.

import { Button, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function MultilineText({ text, clampLines }: { text: unknown; clampLines?: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (typeof text !== 'string' || text === '') return null;
  const lines = text.split(/\r?\n/);
  const clamp = !!clampLines && !open && lines.length > clampLines;
  return (
    <div className="multiline-text">
      <Text as="div" whiteSpace="pre-wrap" style={{ overflowWrap: 'anywhere' }}>
        {clamp ? `${lines.slice(0, clampLines).join('\n')}…` : text}
      </Text>
      {clampLines && lines.length > clampLines ? (
        <Button size="small" variation="link" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? t('records.showLess') : t('records.showMore')}
        </Button>
      ) : null}
    </div>
  );
}
