// memberships#edit: the administrator and report flags (admins only; never
// one's own membership — the server refuses with "Permission denied").

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { useIsAdmin } from '../../../lib/accounts';
import { Page } from '../../../components/Page';
import type { FieldDef, FormValues } from '../../../components/records/fields';
import { RecordForm } from '../../../components/records/RecordForm';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { membershipQuery, updateMembership } from '../api/memberships';
import { MembershipCrumbs } from '../components/MembershipParts';
import { OneAdminAlert } from '../components/OneAdminAlert';

const FIELDS: FieldDef[] = [
  { name: 'editor', type: 'boolean' },
  { name: 'report_view', type: 'boolean' },
];

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const qc = useQueryClient();
  const { admin, loading: adminLoading } = useIsAdmin(db);
  const navigate = useNavigate();
  const q = useQuery(membershipQuery(db, id));
  const [values, setValues] = useState<FormValues | null>(null);
  const current: FormValues = values ?? { editor: q.data?.editor === true, report_view: q.data?.report_view === true };
  const m = useMutation({
    mutationFn: () => updateMembership(db, q.data!, { editor: current.editor === true, report_view: current.report_view === true }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['group-membership', db, id] });
      await qc.invalidateQueries({ queryKey: ['group-memberships', db] });
      navigate(paths.show(db, 'memberships', id));
    },
  });
  const error = q.isError ? asApiError(q.error) : null;
  return (
    <Page
      title={t('records.editTitle', { what: q.data?.email ?? t('accounts.memberships.title') })}
      width="medium"
      breadcrumbs={<MembershipCrumbs db={db} current={t('records.edit')} />}
    >
      {!adminLoading && !admin ? (
        <EmptyState icon="members" title={t('records.edit')} message={t('accounts.memberships.adminsOnlyEdit')} testId="membership-admins-only" />
      ) : error ? (
        <EmptyState icon="search" title={t('errors.titles.not_found')} message={t('errors.messages.could-not-find-this-member-subscription')} testId="membership-not-found" />
      ) : (
        <>
          <OneAdminAlert db={db} />
          <RecordForm
            fields={FIELDS}
            values={current}
            onChange={(n, v) => setValues({ ...current, [n]: v })}
            onSubmit={() => m.mutate()}
            onCancel={() => navigate(paths.show(db, 'memberships', id))}
            loading={q.isPending}
            saving={m.isPending}
            error={m.error ? asApiError(m.error) : null}
            onDismissError={() => m.reset()}
          />
        </>
      )}
    </Page>
  );
}
