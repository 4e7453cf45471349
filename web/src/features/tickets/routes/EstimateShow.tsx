// estimates#show: the estimate with its lines and total, its state with
// who decided and when, the moves staff may make (sent, approved, refused),
// the approval link for the customer, the printable PDF, comments and
// history. A decided estimate is frozen: no edit, no moves. The approval
// link goes to the customer by copy, WhatsApp or e-mail (in the Group's
// language), and sharing it makes a draft sent.

import { Button, Card, Flex, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, type DetailRow } from '../../../components/records/RecordShow';
import { putDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useGroupPhones } from '../../../lib/phones';
import { customerQuery } from '../api/customers';
import { decided, docQuery, estimateShared, pdfUrls, publicUrls, reissueApprovalLink, type Estimate, type EstimateState } from '../api/servicedocs';
import { DocShow } from '../components/DocShow';
import { EstimateLines } from '../components/EstimateLines';
import { PublicLink } from '../components/PublicLink';

const MOVES: Record<string, EstimateState[]> = { draft: ['sent', 'approved', 'refused'], sent: ['draft', 'approved', 'refused'] };

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const qc = useQueryClient();
  const q = useQuery(docQuery<Estimate>(db, id));
  const est = q.data;
  const frozen = decided(est?.state);
  const move = useMutation({
    mutationFn: (state: EstimateState) => putDoc(db, { ...(est as Estimate), state }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['tickets', db] }),
  });
  // The link went out: a draft is now sent (the server leaves any other state).
  const share = useMutation({
    mutationFn: () => estimateShared(db, id),
    onSettled: () => qc.invalidateQueries({ queryKey: ['tickets', db] }),
  });
  const customer = useQuery({ ...customerQuery(db, est?.customer_id ?? ''), enabled: !!est?.customer_id });
  const phone = useGroupPhones(db);
  const approvalUrl = est?.approval_token ? publicUrls.estimate(est.approval_token) : '';
  const phones = customer.data?.phones ?? [];
  const mobile = phones.find((p) => p.main) ?? phones[0];
  const message = phone.tCustomer('docs.estimateMessage', { name: customer.data?.name ?? '', number: est?.number ?? '', url: approvalUrl });
  const whatsapp = mobile && approvalUrl ? phone.whatsapp(mobile.number, message) : null;
  const email =
    customer.data?.email && approvalUrl
      ? `mailto:${encodeURIComponent(customer.data.email)}?subject=${encodeURIComponent(phone.tCustomer('docs.estimateSubject', { number: est?.number ?? '' }))}&body=${encodeURIComponent(message)}`
      : null;
  const title = est ? `${t('docs.estimates.one')} #${est.number ?? ''}` : t('nav.estimates');
  const rows: DetailRow[] = est
    ? [
        { key: 'description', label: 'fields.description', value: <MultilineText text={est.description} /> },
        { key: 'state', label: 'docs.stateLabel', value: <EnumBadge name="estimate_state" value={est.state} /> },
        { key: 'customer_id', label: 'fields.customer_id', value: <RecordLink db={db} id={est.customer_id} /> },
        { key: 'ticket_id', label: 'fields.ticket_id', value: est.ticket_id ? <RecordLink db={db} id={est.ticket_id} labelField="title" /> : '' },
        { key: 'valid_until', label: 'fields.valid_until', value: formatDate(est.valid_until, i18n.language) },
        { key: 'observation', label: 'fields.observation', value: est.observation ? <MultilineText text={est.observation} /> : '' },
        { key: 'decided_by_name', label: 'fields.decided_by_name', value: est.decided_by_name ?? '' },
        { key: 'decided_at', label: 'fields.decided_at', value: formatDateTime(est.decided_at, i18n.language) },
        { key: 'decision_note', label: 'fields.decision_note', value: est.decision_note ? <MultilineText text={est.decision_note} /> : '' },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(est.created_at, i18n.language) },
      ]
    : [];
  return (
    <DocShow
      set="estimates"
      itemType="Estimate"
      title={title}
      doc={est}
      error={q.error}
      editable={!frozen}
      actions={
        <a className="amplify-button amplify-button--small" href={pdfUrls.estimate(db, id, i18n.language)} target="_blank" rel="noopener noreferrer" data-testid="print-estimate">
          <AppIcon name="file" /> {t('docs.printEstimate')}
        </a>
      }
      top={
        <>
          <ErrorAlert error={move.error ? asApiError(move.error) : null} onDismiss={() => move.reset()} />
          {est && frozen ? (
            <Text variation="secondary" fontSize="small" data-testid="estimate-frozen">
              {t('docs.estimates.locked')}
            </Text>
          ) : null}
          {est && !frozen ? (
            <Flex gap="small" wrap="wrap" alignItems="center" role="group" aria-label={t('docs.estimates.markAs')} data-testid="estimate-actions">
              <Text fontSize="small" variation="secondary">
                {t('docs.estimates.markAs')}
              </Text>
              {(MOVES[est.state ?? 'draft'] ?? []).map((s) => (
                <Button key={s} size="small" onClick={() => move.mutate(s)} isDisabled={move.isPending} data-testid={`mark-${s}`}>
                  {t(`enums.estimate_state.${s}`)}
                </Button>
              ))}
            </Flex>
          ) : null}
        </>
      }
      details={
        <Flex direction="column" gap="medium">
          <DetailList rows={rows} loading={q.isPending} />
          {est ? (
            <Card variation="outlined">
              <EstimateLines items={est.items ?? []} total={est.total} testId="estimate-lines" totalTestId="estimate-total" />
            </Card>
          ) : null}
          {approvalUrl ? (
            <PublicLink
              db={db}
              url={approvalUrl}
              label={t('docs.approvalLink')}
              onReissue={() => reissueApprovalLink(db, id)}
              testId="approval-link"
              whatsapp={frozen ? null : whatsapp}
              email={frozen ? null : email}
              onShare={() => {
                if ((est?.state ?? 'draft') === 'draft') share.mutate();
              }}
            />
          ) : null}
        </Flex>
      }
    />
  );
}
