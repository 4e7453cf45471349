// The page's versions (newest first): view one, see its line diff against the
// current content, restore it (a PUT of its content on the current _rev).

import { Button, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { getDoc, putDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { type Handbook, pageVersion, pageVersions, SCOPE } from '../api/wiki';
import { DiffView } from './DiffView';

export function VersionsPanel({ db, id }: { db: string; id: string }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [rev, setRev] = useState<string | null>(null);
  const versions = useQuery({ queryKey: [SCOPE, db, 'versions', id], queryFn: () => pageVersions(db, id) });
  const current = useQuery({ queryKey: [SCOPE, db, 'doc', id], queryFn: () => getDoc<Handbook>(db, id) });
  const version = useQuery({ queryKey: [SCOPE, db, 'version', id, rev], queryFn: () => pageVersion(db, id, rev!), enabled: !!rev });
  const restore = useMutation({
    mutationFn: async () => {
      const cur = await getDoc<Handbook>(db, id);
      const v = version.data!;
      const doc: Handbook = { ...cur, title: v.title, content: v.content, content_type: v.content_type ?? cur.content_type, categories: v.categories ?? [] };
      if (v.fields !== undefined) doc.fields = v.fields;
      if (v.uri !== undefined) doc.uri = v.uri;
      if (v.value_for !== undefined) doc.value_for = v.value_for;
      return putDoc(db, doc);
    },
    onSuccess: async () => {
      setRev(null);
      await qc.invalidateQueries({ queryKey: [SCOPE, db] });
      await qc.invalidateQueries({ queryKey: ['history', db, id] });
    },
  });
  const lang = i18n.language;
  return (
    <section aria-labelledby="wiki-versions" data-testid="wiki-versions" className="wiki-noprint">
      <Heading level={3} id="wiki-versions">
        {t('wiki.versions.title')}
      </Heading>
      <ErrorAlert error={versions.error ? asApiError(versions.error) : null} />
      {versions.isPending ? <Loader variation="linear" /> : null}
      <ol className="wiki-links">
        {versions.data?.versions.map((v) => (
          <li key={v.rev} data-testid={`wiki-version-${v.rev}`}>
            <Flex gap="xs" alignItems="baseline" wrap="wrap">
              <Button size="small" variation="link" onClick={() => setRev(rev === v.rev ? null : v.rev)} aria-expanded={rev === v.rev}>
                {v.at ? formatDateTime(v.at, lang) : v.rev}
              </Button>
              <Text as="span" fontSize="small" color="font.tertiary">
                {[v.by?.label, v.title, v.current ? t('wiki.versions.current') : ''].filter(Boolean).join(' · ')}
              </Text>
            </Flex>
          </li>
        ))}
      </ol>
      {rev ? (
        <div data-testid="wiki-version-view">
          <ErrorAlert error={version.error ? asApiError(version.error) : null} />
          {version.isPending ? <Loader variation="linear" /> : null}
          {version.data ? (
            <Flex direction="column" gap="small">
              <Heading level={4}>{version.data.title}</Heading>
              <details>
                <summary>{t('wiki.versions.content')}</summary>
                <pre className="wiki-version-content">{version.data.content}</pre>
              </details>
              <Text fontWeight="bold">{t('wiki.versions.diff')}</Text>
              <DiffView from={current.data?.content ?? ''} to={version.data.content ?? ''} testId="wiki-version-diff" />
              <ErrorAlert error={restore.error ? asApiError(restore.error) : null} onDismiss={() => restore.reset()} />
              {versions.data?.versions.find((v) => v.rev === rev)?.current ? null : (
                <Button size="small" onClick={() => restore.mutate()} isLoading={restore.isPending} data-testid="wiki-version-restore">
                  {t('wiki.versions.restore')}
                </Button>
              )}
            </Flex>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
