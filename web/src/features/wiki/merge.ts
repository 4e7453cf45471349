// The starting text of "edit a merged text" in the conflict view: when only
// one side changed since the common ancestor that side wins; otherwise their
// text, then mine between conflict markers, for the user to resolve.

export function mergeSeed(ancestor: string | null | undefined, theirs: string, mine: string): string {
  if (theirs === mine) return mine;
  if (ancestor != null) {
    if (theirs === ancestor) return mine;
    if (mine === ancestor) return theirs;
  }
  return `<<<<<<< theirs\n${theirs}\n=======\n${mine}\n>>>>>>> mine\n`;
}
