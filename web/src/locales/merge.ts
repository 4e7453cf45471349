// A language's strings come from the shared file (locales/<lang>.json) and
// from each feature's own file (features/<area>/locales/<lang>.json), so a
// module's strings live with its screens. They are deep-merged into one
// translation tree; a string defined twice is a mistake and throws.

export type Tree = { [k: string]: unknown };

export function mergeTrees(into: Tree, add: Tree, where: string, path = ''): Tree {
  for (const [k, v] of Object.entries(add)) {
    const key = path ? `${path}.${k}` : k;
    const cur = into[k];
    if (cur === undefined) {
      into[k] = v && typeof v === 'object' && !Array.isArray(v) ? mergeTrees({}, v as Tree, where, key) : v;
    } else if (cur && typeof cur === 'object' && v && typeof v === 'object' && !Array.isArray(cur) && !Array.isArray(v)) {
      mergeTrees(cur as Tree, v as Tree, where, key);
    } else {
      throw new Error(`i18n: "${key}" is defined twice (again in ${where})`);
    }
  }
  return into;
}

/** mergeAll merges the shared tree and the features' trees (by file name, sorted, so the result is stable). */
export function mergeAll(base: Tree, features: Record<string, Tree>): Tree {
  const out = mergeTrees({}, base, 'locales');
  for (const name of Object.keys(features).sort()) mergeTrees(out, features[name]!, name);
  return out;
}
