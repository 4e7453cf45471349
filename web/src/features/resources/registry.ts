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

const defs: ResourceDef[] = [
  {
    set: 'tickets',
    klass: 'Ticket',
    prefix: 'tik',
    icon: 'ticket',
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
    columns: [
      { name: 'title', kind: 'text' },
      { name: 'number', kind: 'number' },
      { name: 'status', kind: 'enum' },
      { name: 'priority', kind: 'enum' },
      { name: 'created_at', kind: 'date' },
    ],
    searchField: 'title',
    defaultOrder: 'created_at',
    derive: (v) => ({ title: ticketTitle(v.content) }),
  },
  {
    set: 'customers',
    klass: 'Customer',
    prefix: 'cus',
    icon: 'customer',
    fields: [text('name', true), text('short_name'), { name: 'email', type: 'email' }, { name: 'site', type: 'url' }, text('company_name'), text('job_title')],
    columns: [
      { name: 'name', kind: 'text' },
      { name: 'email', kind: 'text' },
      { name: 'company_name', kind: 'text' },
    ],
    searchField: 'name',
    defaultOrder: 'name',
  },
  {
    set: 'equipment',
    klass: 'Equipment',
    prefix: 'eqi',
    icon: 'equipment',
    fields: [text('identifier', true), area('description'), text('maker'), ref('customer_id', 'Customer'), text('location')],
    columns: [
      { name: 'identifier', kind: 'text' },
      { name: 'maker', kind: 'text' },
      { name: 'location', kind: 'text' },
    ],
    searchField: 'identifier',
    defaultOrder: 'identifier',
  },
  {
    set: 'handbooks',
    klass: 'Handbook',
    prefix: 'han',
    icon: 'handbook',
    fields: [text('title', true), area('content'), enumOf('content_type', ['markdown', 'text', 'html']), text('categories'), { name: 'uri', type: 'url' }],
    columns: [
      { name: 'title', kind: 'text' },
      { name: 'categories', kind: 'text' },
      { name: 'updated_at', kind: 'date' },
    ],
    searchField: 'title',
    defaultOrder: 'title',
  },
  {
    set: 'categories',
    klass: 'Category',
    prefix: 'ctg',
    icon: 'category',
    fields: [text('name', true), area('checklist'), { name: 'color', type: 'color' }, bool('active')],
    columns: [
      { name: 'name', kind: 'text' },
      { name: 'active', kind: 'boolean' },
    ],
    searchField: 'name',
    defaultOrder: 'name',
  },
  {
    set: 'contracts',
    klass: 'Contract',
    prefix: 'cnt',
    icon: 'contract',
    fields: [area('description', true), ref('customer_id', 'Customer', true), text('payment_kind'), bool('active')],
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'payment_kind', kind: 'text' },
      { name: 'active', kind: 'boolean' },
    ],
    searchField: 'description',
    defaultOrder: 'created_at',
  },
  {
    set: 'estimates',
    klass: 'Estimate',
    prefix: 'est',
    icon: 'estimate',
    fields: [area('description', true), ref('customer_id', 'Customer', true), ref('ticket_id', 'Ticket', false, 'title'), area('observation')],
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'number', kind: 'number' },
      { name: 'created_at', kind: 'date' },
    ],
    searchField: 'description',
    defaultOrder: 'created_at',
  },
  {
    set: 'maintenances',
    klass: 'Maintenance',
    prefix: 'mai',
    icon: 'maintenance',
    fields: [
      { ...date('date'), required: true },
      date('next_maintenance'),
      ref('category_id', 'Category'),
      ref('equipment_id', 'Equipment', true, 'identifier'),
      num('warranty'),
      ref('ticket_id', 'Ticket', false, 'title'),
    ],
    columns: [
      { name: 'date', kind: 'date' },
      { name: 'next_maintenance', kind: 'date' },
      { name: 'warranty', kind: 'number' },
    ],
    defaultOrder: 'date',
  },
  {
    set: 'mappings',
    klass: 'Mapping',
    prefix: 'map',
    icon: 'mapping',
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
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'target', kind: 'enum' },
      { name: 'order', kind: 'number' },
      { name: 'active', kind: 'boolean' },
    ],
    searchField: 'description',
    defaultOrder: 'order',
  },
  {
    set: 'memberships',
    klass: 'Membership',
    prefix: 'mem',
    icon: 'members',
    fields: [{ name: 'email', type: 'email', required: true }, text('name'), bool('editor'), bool('report_view')],
    columns: [
      { name: 'email', kind: 'text' },
      { name: 'name', kind: 'text' },
      { name: 'status', kind: 'text' },
      { name: 'editor', kind: 'boolean' },
    ],
    searchField: 'email',
    defaultOrder: 'created_at',
  },
  {
    set: 'outgos',
    klass: 'Outgo',
    prefix: 'out',
    icon: 'outgo',
    fields: moneyRecord([text('paid_to'), cents('value', true), ref('wallet_id', 'Wallet', true)]),
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'posted_at', kind: 'date' },
      { name: 'value', kind: 'money' },
      { name: 'confirmed', kind: 'boolean' },
    ],
    searchField: 'description',
    defaultOrder: 'posted_at',
  },
  {
    set: 'incomes',
    klass: 'Income',
    prefix: 'inc',
    icon: 'income',
    fields: moneyRecord([text('paid_by'), cents('value', true), ref('wallet_id', 'Wallet', true)]),
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'posted_at', kind: 'date' },
      { name: 'value', kind: 'money' },
      { name: 'confirmed', kind: 'boolean' },
    ],
    searchField: 'description',
    defaultOrder: 'posted_at',
  },
  {
    set: 'transfers',
    klass: 'Transfer',
    prefix: 'trn',
    icon: 'transfer',
    fields: moneyRecord([
      cents('value', true),
      ref('source_wallet_id', 'Wallet', true),
      ref('destination_wallet_id', 'Wallet', true),
      cents('fee'),
      enumOf('fee_kind', ['source', 'destination']),
    ]),
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'posted_at', kind: 'date' },
      { name: 'value', kind: 'money' },
      { name: 'confirmed', kind: 'boolean' },
    ],
    searchField: 'description',
    defaultOrder: 'posted_at',
  },
  {
    set: 'exchanges',
    klass: 'Exchange',
    prefix: 'exc',
    icon: 'exchange',
    fields: moneyRecord([
      text('paid_to'),
      cents('value_out', true),
      cents('value_in', true),
      ref('source_wallet_id', 'Wallet', true),
      ref('destination_wallet_id', 'Wallet', true),
      cents('fee'),
      enumOf('fee_kind', ['source', 'destination']),
    ]),
    columns: [
      { name: 'description', kind: 'text' },
      { name: 'posted_at', kind: 'date' },
      { name: 'value_out', kind: 'money' },
      { name: 'value_in', kind: 'money' },
    ],
    searchField: 'description',
    defaultOrder: 'posted_at',
  },
  {
    set: 'wallets',
    klass: 'Wallet',
    prefix: 'wll',
    icon: 'wallet',
    fields: [text('name', true), text('currency', true), num('precision'), { ...cents('start_balance'), signed: true }, bool('card'), cents('card_limit'), bool('active')],
    columns: [
      { name: 'name', kind: 'text' },
      { name: 'currency', kind: 'text' },
      { name: 'balance', kind: 'money' },
      { name: 'active', kind: 'boolean' },
    ],
    searchField: 'name',
    defaultOrder: 'name',
  },
  {
    set: 'reader_subscriptions',
    klass: 'ReaderSubscription',
    prefix: 'rsb',
    icon: 'subscription',
    fields: [{ name: 'url', type: 'url', required: true }, text('title'), bool('customize_title'), { name: 'website_url', type: 'url' }, ref('reader_label_id', 'ReaderLabel'), bool('active')],
    columns: [
      { name: 'title', kind: 'text' },
      { name: 'url', kind: 'text' },
      { name: 'active', kind: 'boolean' },
    ],
    searchField: 'title',
    defaultOrder: 'title',
  },
  {
    set: 'reader_labels',
    klass: 'ReaderLabel',
    prefix: 'rlb',
    icon: 'label',
    fields: [text('name', true), text('kind')],
    columns: [
      { name: 'name', kind: 'text' },
      { name: 'kind', kind: 'text' },
    ],
    searchField: 'name',
    defaultOrder: 'name',
  },
  {
    set: 'reader_items',
    klass: 'ReaderItem',
    prefix: 'rit',
    icon: 'reader',
    fields: [],
    columns: [
      { name: 'title', kind: 'text' },
      { name: 'posted_at', kind: 'date' },
      { name: 'read', kind: 'boolean' },
      { name: 'starred', kind: 'boolean' },
    ],
    searchField: 'title',
    defaultOrder: 'posted_at',
    readOnly: true,
  },
  {
    set: 'comments',
    klass: 'Comment',
    prefix: 'cmt',
    icon: 'comment',
    fields: [],
    columns: [
      { name: 'content', kind: 'text' },
      { name: 'date', kind: 'date' },
    ],
    defaultOrder: 'created_at',
    readOnly: true,
  },
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
