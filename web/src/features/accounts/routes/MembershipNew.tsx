// memberships#new: invite someone by email (SPEC §5: the email must be
// confirmed; a free Group has only one administrator).

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { useIsAdmin } from '../../../lib/accounts';
import { Page } from '../../../components/Page';
import type { FieldDef, FormValues } from '../../../components/records/fields';
import { RecordForm } from '../../../components/records/RecordForm';
import { isEmailConfirmed, useCurrentUser } from '../../../lib/current-user';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { inviteMember } from '../api/memberships';
import { CONFIRM_EMAIL_MESSAGE, MembershipCrumbs } from '../components/MembershipParts';
import { OneAdminAlert } from '../components/OneAdminAlert';

const FIELDS: FieldDef[] = [
  { name: 'email', type: 'email', required: true },
  { name: 'editor', type: 'boolean' },
  { name: 'report_view', type: 'boolean' },
];

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const qc = useQueryClient();
  const { admin, loading: adminLoading } = useIsAdmin(db);
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [values, setValues] = useState<FormValues>({ email: '', editor: false, report_view: false });
  const [local, setLocal] = useState<ApiError | null>(null);
  const m = useMutation({
    mutationFn: () => inviteMember(db, { email: String(values.email ?? ''), editor: values.editor === true, report_view: values.report_view === true }),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['group-memberships', db] });
      navigate(paths.show(db, 'memberships', res.id));
    },
  });
  const confirmed = !user.data || isEmailConfirmed(user.data);
  return (
    <Page title={t('accounts.memberships.invite')} width="medium" breadcrumbs={<MembershipCrumbs db={db} current={t('records.new')} />}>
      {!adminLoading && !admin ? (
        <EmptyState icon="members" title={t('accounts.memberships.invite')} message={t('accounts.memberships.adminsOnly')} testId="invite-admins-only" />
      ) : !confirmed ? (
        <EmptyState icon="mail" title={t('accounts.memberships.invite')} message={t(CONFIRM_EMAIL_MESSAGE)} testId="invite-needs-confirmation" />
      ) : (
        <>
          <OneAdminAlert db={db} />
          <RecordForm
            fields={FIELDS}
            values={values}
            onChange={(n, v) => setValues((x) => ({ ...x, [n]: v }))}
            onSubmit={() => {
              if (!String(values.email ?? '').trim()) {
                setLocal(clientValidationError({ email: ['cant-be-blank'] }));
                return;
              }
              setLocal(null);
              m.mutate();
            }}
            onCancel={() => navigate(paths.index(db, 'memberships'))}
            loading={user.isPending}
            saving={m.isPending}
            error={local ?? (m.error ? asApiError(m.error) : null)}
            onDismissError={() => {
              setLocal(null);
              m.reset();
            }}
            submitLabel={t('accounts.memberships.send')}
          />
        </>
      )}
    </Page>
  );
}
