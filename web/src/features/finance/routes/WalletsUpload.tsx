// /wallets-upload: a bank statement (CSV or OFX) into a wallet. Choose the
// wallet and the file; the server detects how to read it (or uses the
// wallet's saved profile) and answers a live check — totals, the first rows
// with the mapping rules applied, duplicates — which every change of an
// option runs again; then the import writes the rows as imported,
// unconfirmed records, to review and confirm in the wallet's lists.

import { Alert, Button, Flex, Loader, SelectField, Text, View } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert, useErrorText } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { PageLoader } from '../../../components/PageLoader';
import { ButtonLink } from '../../../components/RouterLink';
import { useActiveDb } from '../../../lib/active-db';
import { asApiError, type ApiError } from '../../../lib/errors';
import { formatBytes } from '../../../lib/format';
import { formatUnits } from '../../../lib/money';
import { paths } from '../../../lib/paths';
import type { UploadProgress } from '../../../lib/upload';
import {
  checkStatement,
  dynamicMessage,
  importStatement,
  listWallets,
  mergeOverrides,
  problemLine,
  type CheckResult,
  type ImportResult,
  type Overrides,
} from '../api/import';
import { UploadOptions } from '../components/UploadOptions';
import { UploadPreview } from '../components/UploadPreview';
import '../components/upload.css';

/** MAX_BYTES is the server's bound (shared/finance.MaxImportBytes). */
const MAX_BYTES = 10 << 20;

type Busy = { phase: 'check' | 'import'; loaded: number; total: number } | null;

export function Component() {
  const { t, i18n } = useTranslation();
  const db = useActiveDb() ?? '';
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { message } = useErrorText();
  const wallets = useQuery({ queryKey: ['finance', db, 'upload-wallets'], queryFn: () => listWallets(db), enabled: !!db });
  const walletId = params.get('wallet') ?? '';
  const wallet = wallets.data?.find((w) => w._id === walletId);

  const [file, setFile] = useState<File | null>(null);
  const [overrides, setOverrides] = useState<Overrides>({});
  const [check, setCheck] = useState<CheckResult | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [keep, setKeep] = useState<Set<number>>(new Set());
  const [result, setResult] = useState<ImportResult | null>(null);
  const [dragging, setDragging] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  // The first active wallet is preselected.
  useEffect(() => {
    if (!walletId && wallets.data && wallets.data.length > 0) {
      const first = wallets.data.find((w) => w.active !== false) ?? wallets.data[0]!;
      setParams({ wallet: first._id }, { replace: true });
    }
  }, [walletId, wallets.data, setParams]);

  // The live check: again on every change of file, wallet or option; a
  // newer check aborts the one in flight.
  useEffect(() => {
    if (!file || !walletId) return;
    const ctl = new AbortController();
    const timer = window.setTimeout(() => {
      setBusy({ phase: 'check', loaded: 0, total: file.size });
      setError(null);
      checkStatement(db, walletId, file, overrides, (p: UploadProgress) => setBusy({ phase: 'check', ...p }), ctl.signal)
        .then((c) => {
          setCheck(c);
          setBusy(null);
        })
        .catch((err: unknown) => {
          if (err instanceof DOMException && err.name === 'AbortError') return;
          setCheck(null);
          setError(asApiError(err));
          setBusy(null);
        });
    }, 200);
    return () => {
      window.clearTimeout(timer);
      ctl.abort();
    };
  }, [db, file, walletId, overrides]);

  const choose = (f: File | undefined) => {
    if (!f) return;
    setResult(null);
    setKeep(new Set());
    setOverrides({});
    setCheck(null);
    setError(null);
    setTooLarge(f.size > MAX_BYTES);
    setFile(f.size > MAX_BYTES ? null : f);
  };

  const onChange = useCallback((change: Overrides) => {
    setResult(null);
    setOverrides((prev) => mergeOverrides(prev, change));
  }, []);

  // The problem's messages, translated, with their line.
  const say = useCallback(
    (reason: string) => {
      const { line, message: msg } = problemLine(reason);
      const dyn = dynamicMessage(msg);
      const text = dyn ? t(dyn.key, dyn.values) : message(msg);
      return line === null ? text : t('finance.upload.onLine', { line, message: text });
    },
    [message, t],
  );
  const fieldError = useCallback((field: string) => {
    const msgs = check?.problem?.fields[field];
    return msgs && msgs.length > 0 ? msgs.map(say).join(', ') : undefined;
  }, [check, say]);

  const run = async () => {
    if (!file || !check) return;
    setError(null);
    setBusy({ phase: 'import', loaded: 0, total: file.size });
    try {
      const r = await importStatement(db, walletId, file, { ...overrides, keep: [...keep] }, (p) => setBusy({ phase: 'import', ...p }));
      setResult(r);
      setCheck(null);
      setFile(null);
      if (input.current) input.current.value = '';
      void qc.invalidateQueries({ queryKey: ['finance', db] });
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(null);
    }
  };

  const money = useMemo(
    () => (v: number) => (check ? formatUnits(v, i18n.language, check.currency, check.precision) : String(v)),
    [check, i18n.language],
  );

  if (!db) return <PageLoader />;
  if (wallets.isPending) return <PageLoader />;
  if (wallets.isError) {
    return (
      <Page title={t('finance.upload.title')}>
        <ErrorAlert error={asApiError(wallets.error)} />
      </Page>
    );
  }
  if (wallets.data.length === 0) {
    return (
      <Page title={t('finance.upload.title')}>
        <EmptyState
          icon="upload"
          title={t('finance.upload.noWallets')}
          message={t('finance.upload.noWalletsHint')}
          action={<ButtonLink to={paths.create(db, 'wallets')} variation="primary">{t('finance.upload.createWallet')}</ButtonLink>}
        />
      </Page>
    );
  }

  const pct = busy && busy.total > 0 ? Math.min(100, Math.round((busy.loaded / busy.total) * 100)) : 0;
  const importable = check && !check.problem ? check.new + [...keep].length : 0;
  return (
    <Page title={t('finance.upload.title')} width="wide">
      <Text variation="secondary" marginBottom="small">
        {t('finance.upload.intro')}
      </Text>
      <Flex direction={{ base: 'column', medium: 'row' }} gap="medium" alignItems={{ base: 'stretch', medium: 'flex-end' }}>
        <SelectField
          label={t('finance.upload.wallet')}
          value={walletId}
          onChange={(e) => {
            setResult(null);
            setOverrides({});
            setParams({ wallet: e.target.value }, { replace: true });
          }}
          data-testid="upload-wallet"
        >
          {wallets.data.map((w) => (
            <option key={w._id} value={w._id}>
              {w.name} ({w.currency})
            </option>
          ))}
        </SelectField>
        <label
          className={`upload-drop${dragging ? ' upload-drop--over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            choose(e.dataTransfer.files[0]);
          }}
        >
          <AppIcon name="upload" />
          <span>{file ? `${file.name} · ${formatBytes(file.size, i18n.language)}` : t('finance.upload.chooseFile')}</span>
          <input
            ref={input}
            type="file"
            accept=".csv,.txt,.tsv,.ofx,.qfx,text/csv,application/x-ofx"
            aria-label={t('finance.upload.file')}
            data-testid="upload-file"
            onChange={(e) => choose(e.target.files?.[0])}
          />
        </label>
      </Flex>

      {busy ? (
        <View marginTop="small" role="status" data-testid="upload-progress">
          <Loader variation="linear" percentage={pct} isDeterminate={busy.loaded < busy.total} isPercentageTextHidden />
          <Text fontSize="small">
            {busy.loaded < busy.total
              ? t('finance.upload.sending', { pct })
              : busy.phase === 'check'
                ? t('finance.upload.checking')
                : t('finance.upload.writing')}
          </Text>
        </View>
      ) : null}

      {tooLarge ? (
        <Alert variation="error" marginTop="small" role="alert" data-testid="upload-too-large">
          {t('finance.upload.tooLarge', { size: formatBytes(MAX_BYTES, i18n.language) })}
        </Alert>
      ) : (
        <View marginTop="small">
          <ErrorAlert error={error} onDismiss={() => setError(null)} showFields />
        </View>
      )}

      {result ? (
        <Alert variation="success" marginTop="small" heading={t('finance.upload.done')} role="status" data-testid="upload-result">
          {t('finance.upload.doneText', { created: result.created, duplicates: result.duplicates, imported: result.imported })}
          <Flex gap="small" marginTop="xs" wrap="wrap">
            <ButtonLink to={paths.show(db, 'wallets', walletId)} size="small">
              {t('finance.upload.toWallet', { name: wallet?.name ?? '' })}
            </ButtonLink>
            <ButtonLink to={`${paths.index(db, 'outgos')}?wallet=${walletId}&state=imported`} size="small">
              {t('finance.upload.review')}
            </ButtonLink>
          </Flex>
        </Alert>
      ) : null}

      {!file && !result ? (
        <Text fontSize="small" variation="tertiary" marginTop="small">
          {t('finance.upload.hint', { size: formatBytes(MAX_BYTES, i18n.language) })}
        </Text>
      ) : null}

      {check ? (
        <>
          {check.problem ? (
            <Alert variation="warning" marginTop="small" role="alert" heading={t('finance.upload.problem')} data-testid="upload-problem">
              {say(check.problem.reason)}
            </Alert>
          ) : null}
          {check.options.format === 'csv' ? <UploadOptions check={check} onChange={onChange} fieldError={fieldError} /> : (
            <Text marginTop="small" data-testid="upload-ofx">{t('finance.upload.ofx')}</Text>
          )}
          <section className="upload-panel" aria-labelledby="upload-summary-title">
            <h3 id="upload-summary-title" className="upload-panel__title">
              {t('finance.upload.summary')}
            </h3>
            <dl className="upload-totals" data-testid="upload-totals">
              <div>
                <dt>{t('finance.upload.rows')}</dt>
                <dd>{check.rows}</dd>
              </div>
              <div>
                <dt>{t('finance.upload.incomes', { count: check.incomes })}</dt>
                <dd className="amount amount--in">{money(check.income_total)}</dd>
              </div>
              <div>
                <dt>{t('finance.upload.outgos', { count: check.outgos })}</dt>
                <dd className="amount amount--out">{money(check.outgo_total)}</dd>
              </div>
              <div>
                <dt>{t('finance.upload.statuses.duplicate')}</dt>
                <dd data-testid="upload-duplicates">{check.duplicates}</dd>
              </div>
              <div>
                <dt>{t('finance.upload.statuses.imported')}</dt>
                <dd>{check.imported}</dd>
              </div>
            </dl>
            {check.preview.length > 0 ? (
              <UploadPreview
                check={check}
                keep={keep}
                onKeep={(line, kept) =>
                  setKeep((prev) => {
                    const next = new Set(prev);
                    if (kept) next.add(line);
                    else next.delete(line);
                    return next;
                  })
                }
              />
            ) : null}
          </section>
          <Flex justifyContent="flex-end" marginTop="medium" gap="small" wrap="wrap">
            <Button
              variation="primary"
              onClick={() => void run()}
              isDisabled={!!busy || importable === 0}
              isLoading={busy?.phase === 'import'}
              loadingText={t('finance.upload.importing')}
              data-testid="upload-import"
            >
              <AppIcon name="check" /> {t('finance.upload.import', { count: importable })}
            </Button>
          </Flex>
        </>
      ) : null}
    </Page>
  );
}
