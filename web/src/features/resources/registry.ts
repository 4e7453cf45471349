// The generic definition of each resource set (SPEC §3 fields): enough for
// the record kit to list, show, create and edit any set until its module
// brings a dedicated screen.

import type { FieldDef } from '../../components/records/fields';
import type { IconName } from '../../components/icons';

/** How a list column or a detail row shows a field: enums as translated badges, references as links by name, money per locale, long text with its line breaks. */
export type ColumnKind = 'text' | 'date' | 'number' | 'boolean' | 'datetime' | 'enum' | 'ref' | 'money' | 'multiline';

export interface ResourceDef {
  set: string;
  klass: string;
  prefix: string;
  icon: IconName;
  /** Form fields (new and edit); empty for read-only sets. */
  fields: FieldDef[];
  /** List columns: field name and how to show it. The first links to the record. */
  columns: Array<{ name: string; kind: ColumnKind }>;
  /** The field a search matches against. */
  searchField?: string;
  defaultOrder: string;
  readOnly?: boolean;
  /** Derive fields on save (a ticket's title from its content). */
  derive?: (values: Record<string, unknown>) => Record<string, unknown>;
}

const text = (name: string, required = false): FieldDef => ({ name, type: 'text', required });
const area = (name: string, required = false): FieldDef => ({ name, type: 'textarea', required });
const num = (name: string): FieldDef => ({ name, type: 'number' });
const date = (name: string): FieldDef => ({ name, type: 'date' });
const bool = (name: string): FieldDef => ({ name, type: 'boolean' });
const select = (name: string, options: readonly string[], optionLabels?: string): FieldDef => ({
  name,
  type: 'select',
  options,
  ...(optionLabels ? { optionLabels } : {}),
});

/** ref: a reference chosen by name from klass (shown as a link to the record). */
const ref = (name: string, klass: string, required = false, refLabel?: string): FieldDef => ({
  name,
  type: 'ref',
  ref: klass,
  required,
  ...(refLabel ? { refLabel } : {}),
});
/** cents: an amount in minor units, typed and shown per locale. */
const cents = (name: string, required = false): FieldDef => ({ name, type: 'money', required });
/** enumOf: a select whose options are translated under enums.<labels>. */
const enumOf = (name: string, options: readonly string[], labels = name, required = false): FieldDef => ({
  ...select(name, options, `enums.${labels}`),
  required,
});

const moneyRecord = (extra: FieldDef[]): FieldDef[] => [
  date('posted_at'),
  text('description', true),
  ...extra,
  text('categories'),
  bool('confirmed'),
];

export const TICKET_STATUS = ['open', 'block', 'doing', 'review', 'done', 'cancel'] as const;
export const TICKET_PRIORITY = ['low', 'medium', 'high'] as const;
export const TICKET_KIND = ['chore', 'bug', 'story'] as const;

/** ticketTitle (SPEC §3): the first line of the problem, or its first 60 characters. */
export function ticketTitle(content: unknown): string {
  const s = typeof content === 'string' ? content.trim() : '';
  const first = s.split(/\r?\n/)[0] ?? '';
  return first.length > 60 || !first ? s.slice(0, 60) : first;
}

/** resource: a set's declaration; its list columns are given as field → kind, in the order shown. */
function resource(set: string, klass: string, prefix: string, icon: IconName, def: Omit<ResourceDef, 'set' | 'klass' | 'prefix' | 'icon' | 'columns'> & { columns: Record<string, ColumnKind> }): ResourceDef {
  const columns = Object.entries(def.columns).map(([name, kind]) => ({ name, kind }));
  return { set, klass, prefix, icon, ...def, columns };
}

/** moneyList: how the money records (incomes, outgos, transfers) are listed, searched and ordered. */
const moneyList = {
  columns: { description: 'text', posted_at: 'date', value: 'money', confirmed: 'boolean' },
  searchField: 'description',
  defaultOrder: 'posted_at',
} satisfies Pick<Parameters<typeof resource>[4], 'columns' | 'searchField' | 'defaultOrder'>;

const defs: ResourceDef[] = [
  resource('tickets', 'Ticket', 'tik', 'ticket', {
    fields: [
      area('content'),
      area('problem'),
      enumOf('priority', TICKET_PRIORITY),
      enumOf('ticket_kind', TICKET_KIND),
      enumOf('status', TICKET_STATUS),
      ref('customer_id', 'Customer'),
      ref('equipment_id', 'Equipment', false, 'identifier'),
      ref('category_id', 'Category'),
      ref('contract_id', 'Contract', false, 'description'),
      date('estimation'),
      area('equipment_observation'),
    ],
    columns: { title: 'text', number: 'number', status: 'enum', priority: 'enum', created_at: 'date' },
    searchField: 'title',
    defaultOrder: 'created_at',
    derive: (v) => ({ title: ticketTitle(v.content) }),
  }),
  resource('customers', 'Customer', 'cus', 'customer', {
    fields: [text('name', true), text('short_name'), { name: 'email', type: 'email' }, { name: 'site', type: 'url' }, text('company_name'), text('job_title')],
    columns: { name: 'text', email: 'text', company_name: 'text' },
    searchField: 'name',
    defaultOrder: 'name',
  }),
  resource('equipment', 'Equipment', 'eqi', 'equipment', {
    fields: [text('identifier', true), area('description'), text('maker'), ref('customer_id', 'Customer'), text('location')],
    columns: { identifier: 'text', maker: 'text', location: 'text' },
    searchField: 'identifier',
    defaultOrder: 'identifier',
  }),
  resource('handbooks', 'Handbook', 'han', 'handbook', {
    fields: [text('title', true), area('content'), enumOf('content_type', ['markdown', 'text', 'html']), text('categories'), { name: 'uri', type: 'url' }],
    columns: { title: 'text', categories: 'text', updated_at: 'date' },
    searchField: 'title',
    defaultOrder: 'title',
  }),
  resource('categories', 'Category', 'ctg', 'category', {
    fields: [text('name', true), area('checklist'), { name: 'color', type: 'color' }, bool('active')],
    columns: { name: 'text', active: 'boolean' },
    searchField: 'name',
    defaultOrder: 'name',
  }),
  resource('contracts', 'Contract', 'cnt', 'contract', {
    fields: [area('description', true), ref('customer_id', 'Customer', true), text('payment_kind'), bool('active')],
    columns: { description: 'text', payment_kind: 'text', active: 'boolean' },
    searchField: 'description',
    defaultOrder: 'created_at',
  }),
  resource('estimates', 'Estimate', 'est', 'estimate', {
    fields: [area('description', true), ref('customer_id', 'Customer', true), ref('ticket_id', 'Ticket', false, 'title'), area('observation')],
    columns: { description: 'text', number: 'number', created_at: 'date' },
    searchField: 'description',
    defaultOrder: 'created_at',
  }),
  resource('maintenances', 'Maintenance', 'mai', 'maintenance', {
    fields: [
      { ...date('date'), required: true },
      date('next_maintenance'),
      ref('category_id', 'Category'),
      ref('equipment_id', 'Equipment', true, 'identifier'),
      num('warranty'),
      ref('ticket_id', 'Ticket', false, 'title'),
    ],
    columns: { date: 'date', next_maintenance: 'date', warranty: 'number' },
    defaultOrder: 'date',
  }),
  resource('mappings', 'Mapping', 'map', 'mapping', {
    fields: [
      text('description', true),
      enumOf('target', ['exchange', 'income', 'outgo', 'transfer'], 'target', true),
      enumOf('field_to_watch', ['description', 'third_party', 'categories'], 'mapping_field', true),
      enumOf('kind_of_watch', ['contains', 'ends_with', 'equals', 'starts_with'], 'kind_of_watch', true),
      text('text_to_match', true),
      enumOf('kind_of_change', ['replace', 'append', 'prepend'], 'kind_of_change', true),
      enumOf('field_to_change', ['description', 'third_party', 'categories'], 'mapping_field', true),
      text('text_to_change'),
      num('order'),
      bool('active'),
    ],
    columns: { description: 'text', target: 'enum', order: 'number', active: 'boolean' },
    searchField: 'description',
    defaultOrder: 'order',
  }),
  resource('memberships', 'Membership', 'mem', 'members', {
    fields: [{ name: 'email', type: 'email', required: true }, text('name'), bool('editor'), bool('report_view')],
    columns: { email: 'text', name: 'text', status: 'text', editor: 'boolean' },
    searchField: 'email',
    defaultOrder: 'created_at',
  }),
  resource('outgos', 'Outgo', 'out', 'outgo', {
    fields: moneyRecord([text('paid_to'), cents('value', true), ref('wallet_id', 'Wallet', true)]),
    ...moneyList,
  }),
  resource('incomes', 'Income', 'inc', 'income', {
    fields: moneyRecord([text('paid_by'), cents('value', true), ref('wallet_id', 'Wallet', true)]),
    ...moneyList,
  }),
  resource('transfers', 'Transfer', 'trn', 'transfer', {
    fields: moneyRecord([
      cents('value', true),
      ref('source_wallet_id', 'Wallet', true),
      ref('destination_wallet_id', 'Wallet', true),
      cents('fee'),
      enumOf('fee_kind', ['source', 'destination']),
    ]),
    ...moneyList,
  }),
  resource('exchanges', 'Exchange', 'exc', 'exchange', {
    fields: moneyRecord([
      text('paid_to'),
      cents('value_out', true),
      cents('value_in', true),
      ref('source_wallet_id', 'Wallet', true),
      ref('destination_wallet_id', 'Wallet', true),
      cents('fee'),
      enumOf('fee_kind', ['source', 'destination']),
    ]),
    columns: { description: 'text', posted_at: 'date', value_out: 'money', value_in: 'money' },
    searchField: 'description',
    defaultOrder: 'posted_at',
  }),
  resource('wallets', 'Wallet', 'wll', 'wallet', {
    fields: [text('name', true), text('currency', true), num('precision'), { ...cents('start_balance'), signed: true }, bool('card'), cents('card_limit'), bool('active')],
    columns: { name: 'text', currency: 'text', balance: 'money', active: 'boolean' },
    searchField: 'name',
    defaultOrder: 'name',
  }),
  resource('reader_subscriptions', 'ReaderSubscription', 'rsb', 'subscription', {
    fields: [{ name: 'url', type: 'url', required: true }, text('title'), bool('customize_title'), { name: 'website_url', type: 'url' }, ref('reader_label_id', 'ReaderLabel'), bool('active')],
    columns: { title: 'text', url: 'text', active: 'boolean' },
    searchField: 'title',
    defaultOrder: 'title',
  }),
  resource('reader_labels', 'ReaderLabel', 'rlb', 'label', {
    fields: [text('name', true), text('kind')],
    columns: { name: 'text', kind: 'text' },
    searchField: 'name',
    defaultOrder: 'name',
  }),
  resource('reader_items', 'ReaderItem', 'rit', 'reader', {
    fields: [],
    columns: { title: 'text', posted_at: 'date', read: 'boolean', starred: 'boolean' },
    searchField: 'title',
    defaultOrder: 'posted_at',
    readOnly: true,
  }),
  resource('comments', 'Comment', 'cmt', 'comment', {
    fields: [],
    columns: { content: 'text', date: 'date' },
    defaultOrder: 'created_at',
    readOnly: true,
  }),
];

export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(defs.map((d) => [d.set, d]));

/** resourceFor: the set's definition; show-only sets get a read-only one. */
export function resourceFor(set: string): ResourceDef {
  return (
    RESOURCES[set] ?? {
      set,
      klass: '',
      prefix: '',
      icon: 'file',
      fields: [],
      columns: [],
      defaultOrder: 'created_at',
      readOnly: true,
    }
  );
}
