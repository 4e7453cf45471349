// The signed-in screens' loaders, by route name (route-table.ts): a chunk of
// its own, so the landing page does not carry their lists of preloads.
// Generic sets use the resources kit unless SCREENS names a module's own screen.

import type { ScreenModule } from './route-table';

const resourceIndex = () => import('../features/resources/routes/ResourceIndex');
const resourceShow = () => import('../features/resources/routes/ResourceShow');
const resourceNew = () => import('../features/resources/routes/ResourceNew');
const resourceEdit = () => import('../features/resources/routes/ResourceEdit');

type Screen = 'index' | 'new' | 'show' | 'edit';

type Load = () => Promise<ScreenModule>;

/**
 * withForm is a set's screens whose new and edit are one form: each screen
 * is loaded from one place (each import() site costs this chunk its list of
 * preloads).
 */
const withForm = (form: Load, screens: { index?: Load; show: Load }): Partial<Record<Screen, Load>> => ({ ...screens, new: form, edit: form });

const appEntry = () => import('../features/accounts/routes/AppEntry');
const disk = () => import('../features/disk/routes/Disk');
const moneyScreens = withForm(() => import('../features/finance/routes/MoneyForm'), {
  index: () => import('../features/finance/routes/MoneyIndex'),
  show: () => import('../features/finance/routes/MoneyShow'),
});

/**
 * The module screens that replace the generic kit for a set, by kind; a kind
 * left out keeps the kit's screen.
 */
const SCREENS: Record<string, Partial<Record<Screen, Load>>> = {
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
  estimates: withForm(() => import('../features/tickets/routes/EstimateForm'), {
    index: () => import('../features/tickets/routes/EstimatesIndex'),
    show: () => import('../features/tickets/routes/EstimateShow'),
  }),
  contracts: withForm(() => import('../features/tickets/routes/ContractForm'), {
    index: () => import('../features/tickets/routes/ContractsIndex'),
    show: () => import('../features/tickets/routes/ContractShow'),
  }),
  maintenances: withForm(() => import('../features/tickets/routes/MaintenanceForm'), {
    index: () => import('../features/tickets/routes/MaintenancesIndex'),
    show: () => import('../features/tickets/routes/MaintenanceShow'),
  }),
  equipment: withForm(() => import('../features/tickets/routes/EquipmentForm'), {
    index: () => import('../features/tickets/routes/EquipmentIndex'),
    show: () => import('../features/tickets/routes/EquipmentShow'),
  }),
  categories: withForm(() => import('../features/tickets/routes/CategoryForm'), { show: () => import('../features/tickets/routes/CategoryShow') }),
  // Finance (features/finance, server shared/finance): the four money sets
  // share their screens, which read the set from the route.
  wallets: withForm(() => import('../features/finance/routes/WalletForm'), {
    index: () => import('../features/finance/routes/WalletsIndex'),
    show: () => import('../features/finance/routes/WalletShow'),
  }),
  ...Object.fromEntries((['incomes', 'outgos', 'transfers', 'exchanges'] as const).map((set) => [set, moneyScreens])),
  mappings: withForm(() => import('../features/finance/routes/MappingForm'), {
    index: () => import('../features/finance/routes/MappingsIndex'),
    show: () => import('../features/finance/routes/MappingShow'),
  }),
  // The wiki's pages (features/wiki, server shared/wiki).
  handbooks: withForm(() => import('../features/wiki/routes/PageForm'), {
    index: () => import('../features/wiki/routes/PagesIndex'),
    show: () => import('../features/wiki/routes/PageShow'),
  }),
};

const GENERIC: Record<Screen, Load> = { index: resourceIndex, new: resourceNew, show: resourceShow, edit: resourceEdit };

/** The screens that are not a set's index, new, show or edit. */
const NAMED: Record<string, Load> = {
  'app': appEntry,
  'appHtml': appEntry,
  'user#profile': () => import('../features/profile/routes/Profile'),
  'user#newsletter': () => import('../features/profile/routes/Newsletter'),
  'account#new': () => import('../features/accounts/routes/AccountNew'),
  'dashboard': () => import('../features/accounts/routes/Dashboard'),
  'admin': () => import('../features/accounts/routes/Admin'),
  'adminnoop': () => import('../features/accounts/routes/AdminNoop'),
  'maintenances#plan': () => import('../features/tickets/routes/MaintenancePlan'),
  'groups#index': () => import('../features/accounts/routes/GroupsIndex'),
  'groups#new': () => import('../features/accounts/routes/GroupsNew'),
  'comments#show': () => import('../features/accounts/routes/CommentShow'),
  'reader_items#index': () => import('../features/reader/routes/ReaderItemsIndex'),
  'reader_items#show': () => import('../features/reader/routes/ReaderItemShow'),
  'bookmarks#index': () => import('../features/links/routes/Bookmarks'),
  'users#show': () => import('../features/accounts/routes/UserShow'),
  'disk#index': disk,
  'disk#show': disk,
  'tickets#board': () => import('../features/tickets/routes/TicketBoard'),
  'wallets#upload': () => import('../features/finance/routes/WalletsUpload'),
  'wiki#index': () => import('../features/wiki/routes/Wiki'),
  'subscription#usage': () => import('../features/billing/routes/Usage'),
  'subscription#billing': () => import('../features/billing/routes/Billing'),
  'subscription#checkout': () => import('../features/billing/routes/SubscriptionCheckout'),
  'checkout': () => import('../features/billing/routes/Checkout'),
};

/** loadScreen loads the screen of a signed-in route, by its name ("customers#show", "dashboard"). */
export function loadScreen(name: string): Promise<ScreenModule> {
  const named = NAMED[name];
  if (named) return named();
  const [set = '', kind] = name.split('#');
  const load = SCREENS[set]?.[kind as Screen] ?? GENERIC[kind as Screen];
  return load ? load() : Promise.reject(new Error(`no screen is named ${name}`));
}
