import { counterBadge } from '../lib/format';

/** CounterBadge (SPEC §9): 0–9 then 9+, grey/amber/orange/red. */
export function CounterBadge({ count, label }: { count: number | null | undefined; label?: string }) {
  const { label: text, tone } = counterBadge(count);
  return (
    <span className={`counter-badge counter-badge--${tone}`} data-tone={tone} aria-label={label ? `${label}: ${text}` : undefined}>
      {text}
    </span>
  );
}
