// RecordShow: a record's details with its actions, and the comments and
// history panels as slots the module screens fill.

import { Card, Flex, Grid, Heading, Placeholder, Text, View } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../icons';

export interface DetailRow {
  key: string;
  /** i18n key of the label. */
  label: string;
  value: ReactNode;
}

/**
 * ShownField declares one row of a show screen: a field's name (its label
 * fields.<name>, its text as stored), or a row with its own label key and
 * value.
 */
export type ShownField<D> = string | { name: string; label?: string; value: (doc: D) => ReactNode };

/** detailRows: the declared rows of doc (none while it loads). */
export function detailRows<D extends object>(doc: D | undefined, shown: readonly ShownField<D>[]): DetailRow[] {
  if (!doc) return [];
  return shown.map((f) => {
    if (typeof f !== 'string') return { key: f.name, label: f.label ?? `fields.${f.name}`, value: f.value(doc) };
    const v = (doc as Record<string, unknown>)[f];
    return { key: f, label: `fields.${f}`, value: typeof v === 'string' || typeof v === 'number' ? String(v) : '' };
  });
}

export function DetailList({ rows, loading }: { rows: DetailRow[]; loading?: boolean }) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Flex direction="column" gap="small">
        {[0, 1, 2].map((i) => (
          <Placeholder key={i} />
        ))}
      </Flex>
    );
  }
  return (
    <dl className="detail-list" data-testid="detail-list">
      {rows.map((r) => (
        <div key={r.key} className="detail-list__row">
          <dt>{t(r.label, { defaultValue: r.label.split('.').pop() })}</dt>
          <dd>{r.value === '' || r.value === null || r.value === undefined ? <Text as="span" variation="tertiary">—</Text> : r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Panel({ title, icon, children, testId }: { title: string; icon: 'comment' | 'history' | 'info'; children: ReactNode; testId?: string }) {
  return (
    <Card variation="outlined" as="section" aria-label={title} data-testid={testId}>
      <Heading level={5} marginBottom="small">
        <AppIcon name={icon} /> {title}
      </Heading>
      {children}
    </Card>
  );
}

export function RecordShow({
  details,
  comments,
  history,
}: {
  details: ReactNode;
  /** The comments panel's content (a module fills it); omitted, no panel. */
  comments?: ReactNode;
  history?: ReactNode;
}) {
  const { t } = useTranslation();
  const side = comments !== undefined || history !== undefined;
  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', large: side ? 'minmax(0, 2fr) minmax(0, 1fr)' : 'minmax(0, 1fr)' }} gap="medium">
      <Card variation="outlined">{details}</Card>
      {side ? (
        <View>
          <Flex direction="column" gap="medium">
            {comments !== undefined ? (
              <Panel title={t('records.comments')} icon="comment" testId="comments-panel">
                {comments}
              </Panel>
            ) : null}
            {history !== undefined ? (
              <Panel title={t('records.history')} icon="history" testId="history-panel">
                {history}
              </Panel>
            ) : null}
          </Flex>
        </View>
      ) : null}
    </Grid>
  );
}
