// The app's icon set: small stroke icons drawn on a 24×24 grid. /icons lists
// them all, so a screen picks an existing one before adding a new one.

import type { CSSProperties } from 'react';

export const ICONS = {
  home: 'M3 11 12 4l9 7M5 10v10h5v-6h4v6h5V10',
  dashboard: 'M4 4h7v7H4zM13 4h7v4h-7zM13 10h7v10h-7zM4 13h7v7H4z',
  ticket: 'M4 7h16v3a2 2 0 0 0 0 4v3H4v-3a2 2 0 0 0 0-4zM14 7v10',
  customer: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  equipment: 'M14 6a4 4 0 0 0 5 5l-8 8a2 2 0 0 1-3-3l8-8a4 4 0 0 0-2-2zM6 18h.01',
  handbook: 'M5 4h11a3 3 0 0 1 3 3v13H8a3 3 0 0 1-3-3zM5 17a3 3 0 0 1 3-3h11',
  estimate: 'M7 3h8l4 4v14H7zM15 3v4h4M10 12h6M10 16h6',
  contract: 'M6 3h9l4 4v14H6zM9 9h6M9 13h6M9 17h3',
  maintenance: 'M4 20l6-6M14 4a6 6 0 0 1 6 6l-3 1-4-4zM12 8l4 4',
  category: 'M4 4h7l9 9-7 7-9-9zM8 8h.01',
  mapping: 'M4 6h10M4 12h16M4 18h7M17 3l3 3-3 3',
  wallet: 'M3 7h16v12H3zM3 7l12-3v3M16 13h3',
  outgo: 'M12 4v16M7 15l5 5 5-5',
  income: 'M12 20V4M7 9l5-5 5 5',
  transfer: 'M4 8h14l-3-3M20 16H6l3 3',
  exchange: 'M7 4v16M3 8l4-4 4 4M17 20V4M13 16l4 4 4-4',
  reader: 'M5 19a1 1 0 1 0 0-.01zM4 11a9 9 0 0 1 9 9M4 4a16 16 0 0 1 16 16',
  label: 'M3 12V4h8l10 10-8 8zM7 8h.01',
  subscription: 'M4 6h16M4 12h16M4 18h10M18 16v6M15 19h6',
  disk: 'M4 5h16v14H4zM4 15h16M8 18h.01',
  folder: 'M3 6h6l2 2h10v11H3z',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  wiki: 'M4 5h6a2 2 0 0 1 2 2v13a2 2 0 0 0-2-2H4zM20 5h-6a2 2 0 0 0-2 2v13a2 2 0 0 1 2-2h6z',
  admin: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  members: 'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 20a6 6 0 0 1 12 0M16 5a3 3 0 0 1 0 6M17 14a5 5 0 0 1 4 6',
  groups: 'M3 9l9-5 9 5-9 5zM3 14l9 5 9-5',
  billing: 'M3 6h18v12H3zM3 10h18M7 15h4',
  usage: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  board: 'M4 4h4v16H4zM10 4h4v10h-4zM16 4h4v13h-4z',
  upload: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM5 21c1-4 4-6 7-6s6 2 7 6',
  settings: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 12l2-1-1-3-2 .3-1.4-1.4.3-2-3-1-1 2h-2l-1-2-3 1 .3 2L6 7.3 4 7 3 10l2 1v2l-2 1 1 3 2-.3 1.4 1.4-.3 2 3 1 1-2h2l1 2 3-1-.3-2 1.4-1.4 2 .3 1-3-2-1z',
  language: 'M4 5h10M9 3v2M6 5c1 4 4 7 8 8M12 5c-1 4-4 7-8 9M13 21l4-9 4 9M14.5 18h5',
  sun: 'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4',
  moon: 'M20 14A8 8 0 0 1 10 4a8 8 0 1 0 10 10z',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h11',
  login: 'M9 4H5v16h4M14 8l4 4-4 4M18 12H7',
  menu: 'M4 6h16M4 12h16M4 18h16',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  refresh: 'M20 11a8 8 0 0 0-14-5L4 8M4 4v4h4M4 13a8 8 0 0 0 14 5l2-2M20 20v-4h-4',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM21 21l-5-5',
  plus: 'M12 5v14M5 12h14',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13 7l4 4',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
  check: 'M5 12l5 5 9-10',
  close: 'M6 6l12 12M18 6L6 18',
  star: 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z',
  bookmark: 'M6 3h12v18l-6-4-6 4z',
  mail: 'M3 5h18v14H3zM3 6l9 7 9-7',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4',
  key: 'M8 14a4 4 0 1 1 3-7l10 0v3h-3v3h-3l-4 0a4 4 0 0 1-3 1z',
  comment: 'M4 5h16v11H9l-5 4z',
  history: 'M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 2',
  info: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 11v6M12 7h.01',
  warning: 'M12 3l10 18H2zM12 10v5M12 18h.01',
  chevronLeft: 'M15 5l-7 7 7 7',
  chevronRight: 'M9 5l7 7-7 7',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  docs: 'M6 3h12v18H6zM9 7h6M9 11h6M9 15h4',
  plan: 'M12 3l3 6 6 1-4.5 4 1 6-5.5-3-5.5 3 1-6L3 10l6-1z',
  newsletter: 'M4 4h13v16H6a2 2 0 0 1-2-2zM17 8h3v10a2 2 0 0 1-2 2M8 8h5M8 12h5M8 16h3',
  filter: 'M3 5h18l-7 8v6l-4 2v-8z',
} as const;

export type IconName = keyof typeof ICONS;

export const ICON_NAMES = Object.keys(ICONS) as IconName[];

export function AppIcon({
  name,
  size = 18,
  title,
  style,
}: {
  name: IconName;
  size?: number;
  title?: string;
  style?: CSSProperties;
}) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      style={{ flexShrink: 0, verticalAlign: 'middle', ...style }}
      data-icon={name}
    >
      <path d={ICONS[name]} />
    </svg>
  );
}
