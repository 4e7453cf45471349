// The profile tab's three modes (SPEC §2): view, edit profile, password modal.

import { Alert, Badge, Button, Flex, Heading, Placeholder, Text, TextField } from '@aws-amplify/ui-react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { UserAvatar } from '../../../components/UserAvatar';
import { isEmailConfirmed, type UserDoc } from '../../../lib/current-user';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { updateProfile } from '../api/update-profile';
import { PasswordModal } from './PasswordModal';

export type ProfileMode = 'view' | 'edit' | 'password';

export const PROFILE_AVATAR_SIZE = 200;

function EditProfile({ user, onDone, onCancel }: { user: UserDoc; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({
    fullname: user.fullname ?? '',
    email: user.unconfirmed_email || user.email || '',
    current_password: '',
  });
  const [localError, setLocalError] = useState<ApiError | null>(null);
  const m = useMutation({ mutationFn: updateProfile, onSuccess: onDone });
  const error = localError ?? (m.error ? asApiError(m.error) : null);
  const fieldError = useFieldError(error);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.current_password) {
      setLocalError(clientValidationError({ current_password: ['cant-be-blank'] }));
      return;
    }
    setLocalError(null);
    m.mutate({
      userId: user._id,
      rev: user._rev ?? '',
      fullname: form.fullname,
      unconfirmed_email: form.email,
      current_password: form.current_password,
    });
  };

  const emailError = fieldError('unconfirmed_email') ?? fieldError('email');
  return (
    <form onSubmit={submit} noValidate aria-label={t('profile.edit.title')} data-testid="edit-profile">
      <Flex direction="column" gap="medium" maxWidth="32rem">
        <Heading level={4}>{t('profile.edit.title')}</Heading>
        <ErrorAlert
          error={error}
          onDismiss={() => {
            setLocalError(null);
            m.reset();
          }}
        />
        <TextField
          label={t('fields.fullname')}
          name="fullname"
          autoComplete="name"
          value={form.fullname}
          onChange={set('fullname')}
          {...errorOf(fieldError('fullname'))}
          autoFocus
        />
        <TextField
          label={t('fields.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={set('email')}
          descriptiveText={t('profile.edit.emailHelp')}
          {...errorOf(emailError)}
        />
        <PasswordInput
          label={t('fields.current_password')}
          name="current_password"
          autoComplete="current-password"
          value={form.current_password}
          onChange={set('current_password')}
          {...errorOf(fieldError('current_password'))}
        />
        <Flex gap="small" justifyContent="flex-end">
          <Button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variation="primary" isLoading={m.isPending}>
            {t('common.save')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

export function ProfileTab({ user, loading, onChanged }: { user: UserDoc | undefined; loading: boolean; onChanged: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [mode, setMode] = useState<ProfileMode>('view');
  const [notice, setNotice] = useState<string | null>(null);

  if (loading || !user) {
    return (
      <Flex gap="large" alignItems="center">
        <Placeholder width="200px" height="200px" />
        <Flex direction="column" gap="small" flex="1">
          <Placeholder size="large" />
          <Placeholder />
        </Flex>
      </Flex>
    );
  }

  if (mode === 'edit') {
    return (
      <EditProfile
        user={user}
        onCancel={() => setMode('view')}
        onDone={() => {
          setMode('view');
          setNotice(t('profile.edit.saved'));
          void onChanged();
        }}
      />
    );
  }

  const confirmed = isEmailConfirmed(user);
  return (
    <Flex direction={{ base: 'column', medium: 'row' }} gap="large" alignItems={{ base: 'center', medium: 'flex-start' }}>
      <UserAvatar email={user.email} hash={user.gravatar_hash} name={user.fullname} size={PROFILE_AVATAR_SIZE} />
      <Flex direction="column" gap="small" flex="1" data-testid="profile-view">
        {notice ? (
          <Alert variation="success" isDismissible onDismiss={() => setNotice(null)}>
            {notice}
          </Alert>
        ) : null}
        <Heading level={3}>{user.fullname || t('profile.noName')}</Heading>
        <Flex alignItems="center" gap="small" wrap="wrap">
          <AppIcon name="mail" />
          <Text>{user.email}</Text>
          {user.confirmed_at ? (
            <Badge size="small" variation="success">
              {t('profile.confirmed')}
            </Badge>
          ) : (
            <Badge size="small" variation="warning">
              {t('profile.unconfirmed')}
            </Badge>
          )}
        </Flex>
        {user.unconfirmed_email ? (
          <Alert variation="info" data-testid="pending-email">
            {t('profile.pendingEmail', { email: user.unconfirmed_email })}
          </Alert>
        ) : null}
        {!confirmed && !user.unconfirmed_email ? <Text variation="secondary">{t('profile.confirmHelp')}</Text> : null}
        <Flex gap="small" marginTop="small" wrap="wrap">
          <Button onClick={() => setMode('edit')} data-testid="edit-profile-button">
            <AppIcon name="edit" /> {t('profile.editProfile')}
          </Button>
          <Button onClick={() => setMode('password')} data-testid="edit-password-button">
            <AppIcon name="lock" /> {t('profile.editPassword')}
          </Button>
        </Flex>
      </Flex>
      <PasswordModal
        open={mode === 'password'}
        userId={user._id}
        rev={user._rev ?? ''}
        onClose={() => setMode('view')}
        onSaved={() => {
          setMode('view');
          setNotice(t('profile.password.saved'));
          void qc.invalidateQueries({ queryKey: ['session'] });
          void onChanged();
        }}
      />
    </Flex>
  );
}
