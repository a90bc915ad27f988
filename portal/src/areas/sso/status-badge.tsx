/** A status as a badge: the word itself, coloured by what it means (never by colour alone). */
export function StatusBadge({ status }: { status: string | undefined }) {
  const tone =
    status === 'active' ? 'badge-good' : status === 'disabled' || status === 'retired' ? 'badge-off' : 'badge-warn';
  return <span className={`badge ${tone}`}>{status ?? 'unknown'}</span>;
}
