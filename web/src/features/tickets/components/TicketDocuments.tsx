// A ticket's paper: print the two-copy receipt (and the contract receipt on
// demand) and its equipment's label, its public status link with "send by
// WhatsApp", and its estimates and maintenances with buttons to start one
// from the ticket.

import { Button, Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { groupCurrency } from '../../../lib/money';
import { AppIcon } from '../../../components/icons';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { MoneyText } from '../../../components/records/Money';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { useAccountConfig } from '../../../lib/account-config';
import { useIsAdmin } from '../../../lib/accounts';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useGroupPhones } from '../../../lib/phones';
import { useCustomer } from '../api/customers';
import { ofTicketQuery, pdfUrls, publicUrls, reissueStatusLink, type Estimate, type Maintenance } from '../api/servicedocs';
import type { Ticket } from '../api/types';
import { LabelLinks } from './LabelLinks';
import { PublicLink } from './PublicLink';

/** The ticket's estimates and maintenances are read by its id, with the ticket itself; the rest waits for it. */
export function TicketDocuments({ db, id, ticket }: { db: string; id: string; ticket: Ticket | undefined }) {
  const estimates = useQuery(ofTicketQuery<Estimate>(db, 'Estimate', id));
  const maintenances = useQuery(ofTicketQuery<Maintenance>(db, 'Maintenance', id));
  // Whether the status link may be reissued (PublicLink's question), asked with the ticket too.
  useIsAdmin(db);
  return ticket ? <Documents db={db} ticket={ticket} estimates={estimates.data} maintenances={maintenances.data} /> : <Placeholder height="4rem" />;
}

function Documents({ db, ticket, estimates, maintenances }: { db: string; ticket: Ticket; estimates: Estimate[] | undefined; maintenances: Maintenance[] | undefined }) {
  const { t, i18n } = useTranslation();
  const cfg = useAccountConfig(db);
  const currency = groupCurrency(cfg);
  const phone = useGroupPhones(db);
  const customer = useCustomer(db, ticket.customer_id);
  const phones = customer.data?.phones ?? [];
  const mobile = phones.find((p) => p.main) ?? phones[0];
  const statusUrl = ticket.status_token ? publicUrls.status(ticket.status_token) : '';
  const wa = mobile && statusUrl ? phone.whatsapp(mobile.number, phone.tCustomer('docs.statusMessage', { name: customer.data?.name ?? '', number: ticket.number, url: statusUrl })) : null;
  const onDemand = cfg['contract-receipt'] !== 'always' && !!ticket.contract_id;
  return (
    <Flex direction="column" gap="small" data-testid="ticket-documents">
      <Flex gap="small" wrap="wrap">
        <a className="amplify-button amplify-button--small" href={pdfUrls.receipt(db, ticket._id, i18n.language)} target="_blank" rel="noopener noreferrer" data-testid="print-receipt">
          <AppIcon name="file" /> {t('docs.printReceipt')}
        </a>
        {onDemand ? (
          <a className="amplify-button amplify-button--small" href={pdfUrls.contractReceipt(db, ticket._id, i18n.language)} target="_blank" rel="noopener noreferrer" data-testid="print-contract">
            <AppIcon name="contract" /> {t('docs.printContract')}
          </a>
        ) : null}
        <ButtonLink to={`${paths.create(db, 'estimates')}?ticket=${encodeURIComponent(ticket._id)}`} size="small" data-testid="new-estimate">
          <AppIcon name="estimate" /> {t('docs.estimates.new')}
        </ButtonLink>
        {ticket.status === 'done' ? (
          <ButtonLink to={`${paths.create(db, 'maintenances')}?ticket=${encodeURIComponent(ticket._id)}`} size="small" data-testid="new-maintenance">
            <AppIcon name="maintenance" /> {t('docs.maintenances.new')}
          </ButtonLink>
        ) : null}
      </Flex>
      {ticket.equipment_id ? <LabelLinks db={db} ids={[ticket.equipment_id]} label={t('docs.labels.printOne')} /> : null}
      {statusUrl ? (
        <>
          <PublicLink db={db} url={statusUrl} label={t('docs.statusLink')} onReissue={() => reissueStatusLink(db, ticket._id)} testId="status-link" />
          {wa ? (
            <a href={wa} target="_blank" rel="noopener noreferrer" className="whatsapp-link" data-testid="send-status-link">
              <AppIcon name="external" /> {t('docs.sendStatusLink')}
            </a>
          ) : (
            <Button size="small" isDisabled alignSelf="flex-start" title={t('docs.noPhone')} data-testid="send-status-link-disabled">
              {t('docs.sendStatusLink')}
            </Button>
          )}
          {!wa ? (
            <Text fontSize="small" variation="tertiary">
              {t('docs.noPhone')}
            </Text>
          ) : null}
        </>
      ) : null}
      {(estimates ?? []).length > 0 ? (
        <Flex direction="column" gap="xxs" data-testid="ticket-estimates">
          <Text fontSize="small" fontWeight="bold">
            {t('nav.estimates')}
          </Text>
          {(estimates ?? []).map((e) => (
            <Flex key={e._id} gap="xs" alignItems="center">
              <AppLink to={paths.show(db, 'estimates', e._id)}>#{e.number}</AppLink>
              <EnumBadge name="estimate_state" value={e.state} />
              <MoneyText units={e.total} currency={currency} />
            </Flex>
          ))}
        </Flex>
      ) : null}
      {(maintenances ?? []).length > 0 ? (
        <Flex direction="column" gap="xxs">
          <Text fontSize="small" fontWeight="bold">
            {t('nav.maintenances')}
          </Text>
          {(maintenances ?? []).map((m) => (
            <AppLink key={m._id} to={paths.show(db, 'maintenances', m._id)}>
              {formatDate(m.date, i18n.language)}
            </AppLink>
          ))}
        </Flex>
      ) : null}
    </Flex>
  );
}
