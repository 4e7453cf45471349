// A file or folder name as the drive accepts it: not empty, no slash, not
// "." or "..", at most 255 characters.

export type NameProblem = 'required' | 'slash' | 'dots' | 'long';

export function nameProblem(raw: string): NameProblem | null {
  const name = raw.trim();
  if (!name) return 'required';
  if (name.includes('/')) return 'slash';
  if (name === '.' || name === '..') return 'dots';
  if (name.length > 255) return 'long';
  return null;
}
