// The Group's people on the desk: technicians and reviewers by their own
// names; someone who left the Group stays named on the tickets assigned to
// them, marked as gone, and is offered again only on those tickets.

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { membersQuery, type Member } from '../api/tickets';

export interface People {
  /** Members first, then former members. */
  list: Member[];
  /** How a user id reads on a ticket: the name, "(left the Group)" for a former member. */
  label: (uid: string | null | undefined) => string;
}

export function usePeople(db: string): People {
  const { t } = useTranslation();
  const q = useQuery(membersQuery(db));
  const list = q.data ?? [];
  const label = (uid: string | null | undefined) => {
    if (!uid) return '';
    const p = list.find((m) => m.user_id === uid);
    if (!p) return q.isPending ? '' : t('tickets.formerMember');
    return p.left ? t('tickets.personLeft', { name: p.name }) : p.name;
  };
  return { list, label };
}

/**
 * PeopleOptions are a select's options: the members, plus the selected
 * person when they have left (so the ticket still shows who it was) —
 * everyone who left when `withFormer` (filters).
 */
export function PeopleOptions({ people, selected, withFormer = false }: { people: People; selected?: string | null | undefined; withFormer?: boolean }) {
  const shown = people.list.filter((m) => !m.left || withFormer || m.user_id === selected);
  const unknown = !!selected && !people.list.some((m) => m.user_id === selected);
  return (
    <>
      {shown.map((m) => (
        <option key={m.user_id} value={m.user_id}>
          {people.label(m.user_id)}
        </option>
      ))}
      {unknown ? <option value={selected}>{people.label(selected)}</option> : null}
    </>
  );
}
