// The user_tokens tab (SPEC §2): the active API tokens (active, description,
// permissions, created_at), a create form whose secret is shown exactly once
// with a copy button, and revoke with a confirmation.

import {
  Alert,
  Badge,
  Button,
  Card,
  CheckboxField,
  Flex,
  Heading,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Text,
  TextField,
} from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { useMemberships } from '../../../lib/accounts';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { accountOf, isPendingMembership } from '../../../lib/memberships';
import { createToken, revokeToken, TOKEN_PERMISSIONS, tokensQuery, type TokenPermission, type UserToken } from '../api/tokens';
import { TabPlaceholder } from './TabParts';
import { HeadRow } from '../../../components/HeadRow';

function Secret({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Alert variation="success" heading={t('profile.tokens.createdTitle')} data-testid="token-secret">
      <Text>{t('profile.tokens.createdHelp')}</Text>
      <Flex alignItems="center" gap="small" marginTop="small" wrap="wrap">
        <code className="token-secret" data-testid="token-secret-value">
          {token}
        </code>
        <Button size="small" onClick={() => void copy()} data-testid="token-copy">
          <AppIcon name={copied ? 'check' : 'docs'} /> {copied ? t('profile.tokens.copied') : t('profile.tokens.copy')}
        </Button>
        <Button size="small" variation="link" onClick={onDone}>
          {t('profile.tokens.done')}
        </Button>
      </Flex>
    </Alert>
  );
}

function CreateTokenForm({ userId, onCreated }: { userId: string; onCreated: (token: string) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const groups = (useMemberships().data ?? []).filter((m) => !isPendingMembership(m) && accountOf(m));
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<TokenPermission>('read');
  const [dbs, setDbs] = useState<string[]>([]);
  const m = useMutation({
    mutationFn: () => createToken(userId, { description: description.trim(), permissions, dbs }),
    onSuccess: async (res) => {
      onCreated(res.token);
      setDescription('');
      setDbs([]);
      await qc.invalidateQueries({ queryKey: ['tokens', userId] });
    },
  });
  const error = m.error ? asApiError(m.error) : null;
  const fieldError = useFieldError(error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!m.isPending) m.mutate();
  };
  return (
    <Card variation="outlined">
      <form onSubmit={submit} noValidate aria-label={t('profile.tokens.new')} data-testid="token-form">
        <Flex direction="column" gap="small">
          <Heading level={5}>{t('profile.tokens.new')}</Heading>
          <ErrorAlert error={error} onDismiss={() => m.reset()} />
          <TextField
            label={t('fields.description')}
            name="description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            {...errorOf(fieldError('description'))}
          />
          <SelectField
            label={t('profile.tokens.permissions')}
            name="permissions"
            value={permissions}
            onChange={(e) => setPermissions(e.target.value === 'read-write' ? 'read-write' : 'read')}
            {...errorOf(fieldError('permissions'))}
          >
            {TOKEN_PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {t(`profile.tokens.permission.${p}`)}
              </option>
            ))}
          </SelectField>
          {groups.length > 0 ? (
            <fieldset className="plain-fieldset">
              <legend>{t('profile.tokens.groups')}</legend>
              <Text fontSize="small" variation="secondary">
                {t('profile.tokens.groupsHelp')}
              </Text>
              {groups.map((g) => (
                <CheckboxField
                  key={g._id}
                  label={g.name || accountOf(g)}
                  name="dbs"
                  value={accountOf(g)}
                  checked={dbs.includes(accountOf(g))}
                  onChange={(e) =>
                    setDbs((cur) => (e.target.checked ? [...cur, accountOf(g)] : cur.filter((d) => d !== accountOf(g))))
                  }
                />
              ))}
            </fieldset>
          ) : null}
          <Flex justifyContent="flex-end">
            <Button type="submit" variation="primary" isLoading={m.isPending} data-testid="token-create">
              <AppIcon name="plus" /> {t('profile.tokens.create')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}

export function TokensTab({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery(tokensQuery(userId));
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<UserToken | null>(null);
  const revoke = useMutation({
    mutationFn: (tok: UserToken) => revokeToken(userId, tok._id),
    onSuccess: async () => {
      setRevoking(null);
      await qc.invalidateQueries({ queryKey: ['tokens', userId] });
    },
  });
  const tokens = q.data ?? [];
  return (
    <Flex direction="column" gap="medium" data-testid="tab-user_tokens">
      {secret ? <Secret token={secret} onDone={() => setSecret(null)} /> : null}
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
      {q.isPending ? (
        <TabPlaceholder />
      ) : tokens.length === 0 ? (
        <EmptyState icon="key" title={t('profile.tabs.user_tokensEmpty')} message={t('profile.tabs.user_tokensHelp')} testId="tab-user_tokens-empty" />
      ) : (
        <div className="table-scroll">
          <Table size="small" highlightOnHover aria-label={t('profile.tabs.user_tokens')} data-testid="tokens-table">
            <HeadRow cells={[t('fields.active'), t('fields.description'), t('profile.tokens.permissions'), t('fields.created_at'), <span className="visually-hidden">{t('profile.tokens.actions')}</span>]} />
            <TableBody>
              {tokens.map((tok) => (
                <TableRow key={tok._id} data-testid="token-row">
                  <TableCell>
                    <Badge size="small" variation={tok.active ? 'success' : undefined}>
                      {tok.active ? t('common.yes') : t('common.no')}
                    </Badge>
                  </TableCell>
                  <TableCell>{tok.description || t('records.untitled')}</TableCell>
                  <TableCell>{t(`profile.tokens.permission.${tok.permissions ?? 'read'}`, { defaultValue: tok.permissions ?? '' })}</TableCell>
                  <TableCell>{formatDateTime(tok.created_at, i18n.language)}</TableCell>
                  <TableCell>
                    {tok.active ? (
                      <Button size="small" variation="destructive" onClick={() => setRevoking(tok)} data-testid="token-revoke">
                        {t('profile.tokens.revoke')}
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <CreateTokenForm userId={userId} onCreated={setSecret} />
      <Modal
        open={!!revoking}
        title={t('profile.tokens.revokeTitle')}
        onClose={() => setRevoking(null)}
        closeLabel={t('common.close')}
        testId="token-revoke-modal"
        footer={
          <>
            <Button onClick={() => setRevoking(null)}>{t('common.cancel')}</Button>
            <Button variation="destructive" isLoading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking)} data-testid="token-revoke-confirm">
              {t('profile.tokens.revoke')}
            </Button>
          </>
        }
      >
        <ErrorAlert error={revoke.error ? asApiError(revoke.error) : null} onDismiss={() => revoke.reset()} />
        <Text>{t('profile.tokens.revokeMessage', { what: revoking?.description || revoking?._id || '' })}</Text>
      </Modal>
    </Flex>
  );
}
