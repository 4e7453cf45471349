// The save conflict (409): the current text (theirs) beside what was typed
// (mine) with a line diff, and three ways out: take theirs, keep mine (saved
// on the current _rev) or edit a merged text.

import { Button, Flex, Heading, Loader, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { asApiError } from '../../../lib/errors';
import { type Handbook, pageConflict, SCOPE } from '../api/wiki';
import { mergeSeed } from '../merge';
import { DiffView } from './DiffView';

export function ConflictView({
  db,
  id,
  rev,
  mine,
  busy,
  onTakeTheirs,
  onKeepMine,
}: {
  db: string;
  id: string;
  /** The _rev the edit started from. */
  rev: string;
  mine: string;
  busy: boolean;
  onTakeTheirs: (current: Handbook) => void;
  /** Save this content over the current document. */
  onKeepMine: (current: Handbook, content: string) => void;
}) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: [SCOPE, db, 'conflict', id, rev], queryFn: () => pageConflict(db, id, rev), staleTime: 0 });
  const [merging, setMerging] = useState(false);
  const [merged, setMerged] = useState('');
  const theirs = q.data?.current.content ?? '';

  return (
    <section className="wiki-conflict-view" data-testid="conflict-view" aria-labelledby="wiki-conflict-h">
      <Heading level={3} id="wiki-conflict-h">
        {t('wiki.conflict.title')}
      </Heading>
      <Text>{t('wiki.conflict.message')}</Text>
      <ErrorAlert error={q.error ? asApiError(q.error) : null} />
      {q.isPending ? <Loader variation="linear" /> : null}
      {q.data ? (
        <Flex direction="column" gap="medium" marginTop="small">
          <div className="wiki-conflict">
            <div>
              <Heading level={4}>{q.data.current_by?.label ? t('wiki.conflict.theirsBy', { by: q.data.current_by.label }) : t('wiki.conflict.theirs')}</Heading>
              <pre data-testid="conflict-theirs">{theirs}</pre>
            </div>
            <div>
              <Heading level={4}>{t('wiki.conflict.mine')}</Heading>
              <pre data-testid="conflict-mine">{mine}</pre>
            </div>
          </div>
          <Text fontWeight="bold">{t('wiki.conflict.diff')}</Text>
          <DiffView from={theirs} to={mine} testId="conflict-diff" />
          {merging ? (
            <TextAreaField label={t('wiki.conflict.merged')} rows={14} value={merged} onChange={(e) => setMerged(e.target.value)} data-testid="conflict-merged" />
          ) : null}
          <Flex gap="small" wrap="wrap">
            <Button onClick={() => onTakeTheirs(q.data.current)} isDisabled={busy} data-testid="conflict-take-theirs">
              {t('wiki.conflict.takeTheirs')}
            </Button>
            <Button onClick={() => onKeepMine(q.data.current, mine)} isLoading={busy} data-testid="conflict-keep-mine">
              {t('wiki.conflict.keepMine')}
            </Button>
            {merging ? (
              <Button variation="primary" onClick={() => onKeepMine(q.data.current, merged)} isLoading={busy} data-testid="conflict-save-merged">
                {t('wiki.conflict.saveMerged')}
              </Button>
            ) : (
              <Button
                onClick={() => {
                  setMerged(mergeSeed(typeof q.data.ancestor?.content === 'string' ? q.data.ancestor.content : null, theirs, mine));
                  setMerging(true);
                }}
                data-testid="conflict-merge"
              >
                {t('wiki.conflict.merge')}
              </Button>
            )}
          </Flex>
        </Flex>
      ) : null}
    </section>
  );
}
