// Product constants shown in the footer and the public pages.

export const SITE = {
  name: 'Oficina',
  docsUrl: 'https://github.com/oficina/oficina#readme',
  contactEmail: 'contact@oficina.app',
  /** The first year of the copyright; the last is the current one. */
  since: 2012,
} as const;
