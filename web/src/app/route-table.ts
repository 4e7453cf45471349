// The route table of SPEC §2, as data: each path with its name, its access
// rule and the screen module it lazily loads (one chunk per screen/module).

import type { Access } from '../lib/route-handle';

export interface ScreenModule {
  Component: React.ComponentType;
}

export interface RouteDef {
  path: string;
  name: string;
  access: Access;
  set?: string;
  /** A customer's page (status, approval): shown without the app's navbar and footer. */
  bare?: boolean;
  load: () => Promise<ScreenModule>;
}

const A = 'account/:account_id';

/** The resource sets with index, show, new and edit (SPEC §2). */
export const FULL_SETS = [
  'categories',
  'contracts',
  'customers',
  'equipment',
  'estimates',
  'exchanges',
  'maintenances',
  'mappings',
  'memberships',
  'outgos',
  'handbooks',
  'incomes',
  'transfers',
  'wallets',
  'reader_subscriptions',
  'reader_labels',
  'tickets',
] as const;

/** Entities with only a plural#show route (timeline change cards link there). */
export const SHOW_ONLY_SETS = [
  'accounts',
  'addresses',
  'adjustments',
  'contract_items',
  'crystals',
  'cloud_files',
  'phones',
  'plan_prices',
  'ticket_checklists',
  'user_tokens',
  'document_changes',
  'wallet_balances',
] as const;

const resourceIndex = () => import('../features/resources/routes/ResourceIndex');
const resourceShow = () => import('../features/resources/routes/ResourceShow');
const resourceNew = () => import('../features/resources/routes/ResourceNew');
const resourceEdit = () => import('../features/resources/routes/ResourceEdit');

type Screen = 'index' | 'new' | 'show' | 'edit';

// Screens used by more than one route, loaded from one place (each import()
// site costs the entry chunk its list of preloads).
const walletForm = () => import('../features/finance/routes/WalletForm');
const mappingForm = () => import('../features/finance/routes/MappingForm');
const wikiForm = () => import('../features/wiki/routes/PageForm');
const moneyForm = () => import('../features/finance/routes/MoneyForm');
const moneyScreens = {
  index: () => import('../features/finance/routes/MoneyIndex'),
  new: moneyForm,
  show: () => import('../features/finance/routes/MoneyShow'),
  edit: moneyForm,
};

/**
 * The module screens that replace the generic kit for a set, by kind; a kind
 * left out keeps the kit's screen.
 */
const SCREENS: Record<string, Partial<Record<Screen, () => Promise<ScreenModule>>>> = {
  reader_subscriptions: {
    index: () => import('../features/reader/routes/SubscriptionsIndex'),
    new: () => import('../features/reader/routes/SubscriptionNew'),
    show: () => import('../features/reader/routes/SubscriptionShow'),
    edit: () => import('../features/reader/routes/SubscriptionEdit'),
  },
  reader_labels: {
    index: () => import('../features/reader/routes/LabelsIndex'),
    new: () => import('../features/reader/routes/LabelNew'),
    show: () => import('../features/reader/routes/LabelShow'),
    edit: () => import('../features/reader/routes/LabelEdit'),
  },
  // The memberships set has its own screens (SPEC §2 "Membership detail").
  memberships: {
    index: () => import('../features/accounts/routes/MembershipsIndex'),
    new: () => import('../features/accounts/routes/MembershipNew'),
    show: () => import('../features/accounts/routes/MembershipShow'),
    edit: () => import('../features/accounts/routes/MembershipEdit'),
  },
  // The ticket desk (features/tickets).
  tickets: {
    index: () => import('../features/tickets/routes/TicketsIndex'),
    new: () => import('../features/tickets/routes/TicketNew'),
    show: () => import('../features/tickets/routes/TicketShow'),
    edit: () => import('../features/tickets/routes/TicketEdit'),
  },
  customers: { show: () => import('../features/tickets/routes/CustomerShow') },
  // Service documents (features/tickets, server shared/servicedocs).
  estimates: {
    index: () => import('../features/tickets/routes/EstimatesIndex'),
    new: () => import('../features/tickets/routes/EstimateForm'),
    show: () => import('../features/tickets/routes/EstimateShow'),
    edit: () => import('../features/tickets/routes/EstimateForm'),
  },
  contracts: {
    index: () => import('../features/tickets/routes/ContractsIndex'),
    new: () => import('../features/tickets/routes/ContractForm'),
    show: () => import('../features/tickets/routes/ContractShow'),
    edit: () => import('../features/tickets/routes/ContractForm'),
  },
  maintenances: {
    index: () => import('../features/tickets/routes/MaintenancesIndex'),
    new: () => import('../features/tickets/routes/MaintenanceForm'),
    show: () => import('../features/tickets/routes/MaintenanceShow'),
    edit: () => import('../features/tickets/routes/MaintenanceForm'),
  },
  equipment: {
    index: () => import('../features/tickets/routes/EquipmentIndex'),
    new: () => import('../features/tickets/routes/EquipmentForm'),
    show: () => import('../features/tickets/routes/EquipmentShow'),
    edit: () => import('../features/tickets/routes/EquipmentForm'),
  },
  categories: {
    show: () => import('../features/tickets/routes/CategoryShow'),
    new: () => import('../features/tickets/routes/CategoryForm'),
    edit: () => import('../features/tickets/routes/CategoryForm'),
  },
  // Finance (features/finance, server shared/finance): the four money sets
  // share their screens, which read the set from the route.
  wallets: { index: () => import('../features/finance/routes/WalletsIndex'), new: walletForm, show: () => import('../features/finance/routes/WalletShow'), edit: walletForm },
  ...Object.fromEntries((['incomes', 'outgos', 'transfers', 'exchanges'] as const).map((set) => [set, moneyScreens])),
  mappings: { index: () => import('../features/finance/routes/MappingsIndex'), new: mappingForm, show: () => import('../features/finance/routes/MappingShow'), edit: mappingForm },
  // The wiki's pages (features/wiki, server shared/wiki).
  handbooks: { index: () => import('../features/wiki/routes/PagesIndex'), new: wikiForm, show: () => import('../features/wiki/routes/PageShow'), edit: wikiForm },
};

function fullSet(set: string): RouteDef[] {
  const own = SCREENS[set] ?? {};
  return [
    { path: `${A}/${set}`, name: `${set}#index`, access: 'account', set, load: own.index ?? resourceIndex },
    { path: `${A}/${set}/new`, name: `${set}#new`, access: 'account', set, load: own.new ?? resourceNew },
    { path: `${A}/${set}/:record_id`, name: `${set}#show`, access: 'account', set, load: own.show ?? resourceShow },
    { path: `${A}/${set}/:record_id/edit`, name: `${set}#edit`, access: 'account', set, load: own.edit ?? resourceEdit },
  ];
}

export const ROUTES: RouteDef[] = [
  { path: '', name: 'home', access: 'public', load: () => import('../features/home/routes/Home') },
  { path: 'app', name: 'app', access: 'user-no-account', load: () => import('../features/accounts/routes/AppEntry') },
  { path: 'app.html', name: 'appHtml', access: 'user-no-account', load: () => import('../features/accounts/routes/AppEntry') },

  { path: 'user/login', name: 'user#login', access: 'public', load: () => import('../features/auth/routes/Login') },
  { path: 'user/register', name: 'user#register', access: 'public', load: () => import('../features/auth/routes/Register') },
  { path: 'user/profile', name: 'user#profile', access: 'user', load: () => import('../features/profile/routes/Profile') },
  { path: 'invite', name: 'invite', access: 'public', load: () => import('../features/profile/routes/Invite') },
  { path: 'user/newsletter', name: 'user#newsletter', access: 'user', load: () => import('../features/profile/routes/Newsletter') },
  { path: 'user/confirm/new', name: 'confirm#new', access: 'public', load: () => import('../features/auth/routes/ConfirmNew') },
  { path: 'user/confirm/:token', name: 'confirm#show', access: 'public', load: () => import('../features/auth/routes/ConfirmShow') },
  { path: 'user/password/new', name: 'password#new', access: 'public', load: () => import('../features/auth/routes/PasswordNew') },
  { path: 'user/password/:token', name: 'password#show', access: 'public', load: () => import('../features/auth/routes/PasswordShow') },

  { path: 'account/new', name: 'account#new', access: 'user-no-account', load: () => import('../features/accounts/routes/AccountNew') },
  { path: A, name: 'dashboard', access: 'account', load: () => import('../features/accounts/routes/Dashboard') },
  { path: `${A}/admin`, name: 'admin', access: 'account', load: () => import('../features/accounts/routes/Admin') },
  { path: `${A}/noop`, name: 'adminnoop', access: 'account', load: () => import('../features/accounts/routes/AdminNoop') },

  // Before the set's :record_id route, so "plan" is not read as an id.
  { path: `${A}/maintenances/plan`, name: 'maintenances#plan', access: 'account', set: 'maintenances', load: () => import('../features/tickets/routes/MaintenancePlan') },
  ...FULL_SETS.flatMap(fullSet),
  { path: `${A}/groups`, name: 'groups#index', access: 'account', load: () => import('../features/accounts/routes/GroupsIndex') },
  { path: `${A}/groups/new`, name: 'groups#new', access: 'account', load: () => import('../features/accounts/routes/GroupsNew') },
  { path: `${A}/comments/:record_id`, name: 'comments#show', access: 'account', set: 'comments', load: () => import('../features/accounts/routes/CommentShow') },
  { path: `${A}/reader_items`, name: 'reader_items#index', access: 'account', set: 'reader_items', load: () => import('../features/reader/routes/ReaderItemsIndex') },
  { path: `${A}/reader_items/:record_id`, name: 'reader_items#show', access: 'account', set: 'reader_items', load: () => import('../features/reader/routes/ReaderItemShow') },
  // The links app (features/links): not in SPEC §2's table.
  { path: `${A}/bookmarks`, name: 'bookmarks#index', access: 'account', set: 'bookmarks', load: () => import('../features/links/routes/Bookmarks') },
  { path: `${A}/users/:record_id`, name: 'users#show', access: 'account', load: () => import('../features/accounts/routes/UserShow') },
  ...SHOW_ONLY_SETS.map(
    (set): RouteDef => ({ path: `${A}/${set}/:record_id`, name: `${set}#show`, access: 'account', set, load: resourceShow }),
  ),

  { path: 'disk', name: 'disk#index', access: 'account', load: () => import('../features/disk/routes/Disk') },
  { path: 'disk/:dir_id', name: 'disk#show', access: 'account', load: () => import('../features/disk/routes/Disk') },
  { path: 'ticket-board', name: 'tickets#board', access: 'account', load: () => import('../features/tickets/routes/TicketBoard') },
  { path: 'wallets-upload', name: 'wallets#upload', access: 'account', load: () => import('../features/finance/routes/WalletsUpload') },
  { path: 'wiki', name: 'wiki#index', access: 'account', load: () => import('../features/wiki/routes/Wiki') },
  { path: 'usage', name: 'subscription#usage', access: 'account', load: () => import('../features/billing/routes/Usage') },
  { path: 'billing', name: 'subscription#billing', access: 'account', load: () => import('../features/billing/routes/Billing') },
  { path: 'checkout/:price_id', name: 'subscription#checkout', access: 'account', load: () => import('../features/billing/routes/SubscriptionCheckout') },
  { path: 'checkout', name: 'checkout', access: 'user-no-account', load: () => import('../features/billing/routes/Checkout') },

  // The customer's pages, opened from a receipt's QR code or a shared link (no sign-in).
  { path: 's/:token', name: 'status#public', access: 'public', bare: true, load: () => import('../features/tickets/routes/PublicStatus') },
  { path: 'e/:token', name: 'estimate#public', access: 'public', bare: true, load: () => import('../features/tickets/routes/PublicEstimate') },

  { path: 'noop', name: 'noop', access: 'public', load: () => import('../features/system/routes/Noop') },
  { path: 'icons', name: 'icons', access: 'public', load: () => import('../features/system/routes/Icons') },

  { path: 'terms-and-conditions.html', name: 'terms', access: 'public', load: () => import('../features/legal/routes/Terms') },
  { path: 'privacy-policy.html', name: 'privacy', access: 'public', load: () => import('../features/legal/routes/Privacy') },
  { path: 'refund-policy.html', name: 'refund', access: 'public', load: () => import('../features/legal/routes/Refund') },
  { path: 'disclaimer.html', name: 'disclaimer', access: 'public', load: () => import('../features/legal/routes/Disclaimer') },

  { path: '*', name: 'not-found', access: 'public', load: () => import('../features/system/routes/NotFound') },
];
