// The email-confirmation deadline (SPEC §9): 30 days from the confirmation
// sent date; fewer than 2 days left reads in the singular.

export const CONFIRMATION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type Deadline = { kind: 'days'; days: number } | { kind: 'one' } | { kind: 'over' } | { kind: 'unknown' };

/** confirmationDeadline tells how long is left to confirm the email. */
export function confirmationDeadline(sentAt: string | null | undefined, now: number = Date.now()): Deadline {
  const sent = sentAt ? Date.parse(sentAt) : Number.NaN;
  if (!Number.isFinite(sent)) return { kind: 'unknown' };
  const left = (sent + CONFIRMATION_DAYS * DAY_MS - now) / DAY_MS;
  if (left <= 0) return { kind: 'over' };
  if (left < 2) return { kind: 'one' };
  return { kind: 'days', days: Math.floor(left) };
}
