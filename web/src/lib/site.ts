// Product constants shown in the footer and the public pages.

export const SITE = {
  name: 'Oficina',
  docsUrl: 'https://github.com/oficina/oficina#readme',
  contactEmail: 'contact@oficina.app',
  copyrightYears: '2012-2023',
  releaseDate: '2025-10-15',
} as const;
