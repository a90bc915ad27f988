// Times on the bridge operations pages, apart from React (portal/spec/bridge-operations.logic.spec.ts).
/** `2026-12-02 05:18:56.123 UTC`; '' for nothing */
export const utc = (iso: string | null | undefined): string =>
  iso === null || iso === undefined || iso === ''
    ? ''
    : `${new Date(iso).toISOString().replace('T', ' ').slice(0, 23)} UTC`;

/** a `datetime-local` input's value (the browser's local time) as an ISO instant; undefined when empty */
export const instantOfLocal = (value: string): string | undefined => {
  if (value === '') return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};
