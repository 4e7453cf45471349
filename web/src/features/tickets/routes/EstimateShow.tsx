// estimates#show: the estimate with its lines and total, its state with
// who decided and when, the moves staff may make (sent, approved, refused),
// the approval link for the customer, the printable PDF, comments and
// history. A decided estimate is frozen: no edit, no moves.

import { Button, Card, Flex, Table, TableBody, TableCell, TableHead, TableRow, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { HistoryList } from '../../../components/records/HistoryList';
import { MoneyText } from '../../../components/records/Money';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { ButtonLink } from '../../../components/RouterLink';
import { deleteDoc, putDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { currencyOf, decided, docQuery, lineTotal, pdfUrls, publicUrls, reissueApprovalLink, type Estimate, type EstimateState } from '../api/servicedocs';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { PublicLink } from '../components/PublicLink';
import { useShortcuts } from '../components/useShortcuts';

const MOVES: Record<string, EstimateState[]> = { draft: ['sent', 'approved', 'refused'], sent: ['draft', 'approved', 'refused'] };

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(docQuery<Estimate>(db, id));
  const [confirming, setConfirming] = useState(false);
  const est = q.data;
  const frozen = decided(est?.state);
  const move = useMutation({
    mutationFn: (state: EstimateState) => putDoc(db, { ...(est as Estimate), state }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['tickets', db] }),
  });
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(est?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
      navigate(paths.index(db, 'estimates'));
    },
  });
  useShortcuts({ e: () => !frozen && navigate(paths.edit(db, 'estimates', id)) });
  const currency = currencyOf(i18n.language);
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
  const notFound = q.isError && asApiError(q.error).status === 404;
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="estimates" current={est ? title : undefined} />}
      actions={
        est ? (
          <>
            <a className="amplify-button amplify-button--small" href={pdfUrls.estimate(db, id, i18n.language)} target="_blank" rel="noopener noreferrer" data-testid="print-estimate">
              <AppIcon name="file" /> {t('docs.printEstimate')}
            </a>
            {frozen ? null : (
              <ButtonLink to={paths.edit(db, 'estimates', id)} size="small" data-testid="edit-record" aria-keyshortcuts="e">
                <AppIcon name="edit" /> {t('records.edit')}
              </ButtonLink>
            )}
            <Button size="small" variation="destructive" onClick={() => setConfirming(true)}>
              <AppIcon name="trash" /> {t('records.delete')}
            </Button>
          </>
        ) : null
      }
    >
      {notFound ? (
        <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      ) : (
        <Flex direction="column" gap="medium">
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={move.error ? asApiError(move.error) : null} onDismiss={() => move.reset()} />
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
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
          <RecordShow
            details={
              <Flex direction="column" gap="medium">
                <DetailList rows={rows} loading={q.isPending} />
                {est ? (
                  <Card variation="outlined">
                    <div className="table-scroll">
                      <Table size="small" data-testid="estimate-lines" aria-label={t('docs.items')}>
                        <TableHead>
                          <TableRow>
                            <TableCell as="th">{t('docs.itemDescription')}</TableCell>
                            <TableCell as="th">{t('docs.quantity')}</TableCell>
                            <TableCell as="th" className="hide-narrow">{t('docs.unitValue')}</TableCell>
                            <TableCell as="th">{t('docs.lineTotal')}</TableCell>
                          </TableRow>
                        </TableHead>
                        <TableBody>
                          {(est.items ?? []).map((it, i) => (
                            <TableRow key={i}>
                              <TableCell>{it.description}</TableCell>
                              <TableCell>{it.quantity}</TableCell>
                              <TableCell className="hide-narrow">
                                <MoneyText units={it.value} currency={currency} />
                              </TableCell>
                              <TableCell>
                                <MoneyText units={lineTotal(it)} currency={currency} />
                              </TableCell>
                            </TableRow>
                          ))}
                          <TableRow>
                            <TableCell colSpan={2}>
                              <strong>{t('docs.total')}</strong>
                            </TableCell>
                            <TableCell className="hide-narrow" />
                            <TableCell data-testid="estimate-total">
                              <strong>
                                <MoneyText units={est.total} currency={currency} />
                              </strong>
                            </TableCell>
                          </TableRow>
                        </TableBody>
                      </Table>
                    </div>
                  </Card>
                ) : null}
                {est?.approval_token ? (
                  <PublicLink db={db} url={publicUrls.estimate(est.approval_token)} label={t('docs.approvalLink')} onReissue={() => reissueApprovalLink(db, id)} testId="approval-link" />
                ) : null}
              </Flex>
            }
            comments={est ? <CommentsPanel db={db} itemId={id} itemType="Estimate" /> : null}
            history={est ? <HistoryList db={db} itemId={id} /> : null}
          />
        </Flex>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
