/// <reference types="vite/client" />

declare const __BUILD_ID__: string;
declare const __BUILT_AT__: string;

// A part of a shared locale file (vite.config.ts, lib/i18n.ts).
declare module '*.json?strings=start' {
  const strings: { [key: string]: unknown };
  export default strings;
}
declare module '*.json?strings=app' {
  const strings: { [key: string]: unknown };
  export default strings;
}
