// The lodash function build-shims/kebab-case.ts stands in for (its test compares the two).
declare module 'lodash/kebabCase.js' {
  export default function kebabCase(text: string): string;
}
