// lodash's kebabCase, for what Amplify UI's createTheme gives it: token paths
// and CSS property names, plain ASCII words (`amplify colors brand primary 10`,
// `backgroundColor`, `_hover`). lodash's own splits any Unicode text, with
// tables that cost the first route about a kilobyte; src/amplify-css.test.ts
// checks this one agrees with it on every token of the theme.
export default function kebabCase(text: string): string {
  const words = text.match(/[A-Z]{2,}(?=[A-Z][a-z]|[0-9]|[^A-Za-z0-9]|$)|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g) ?? [];
  return words.map((w) => w.toLowerCase()).join('-');
}
