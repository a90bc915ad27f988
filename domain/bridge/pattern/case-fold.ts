/**
 * equals-ignore-case compares case-folded strings: Unicode's default (locale-independent) upper-case mapping
 * followed by the lower-case one. Going through upper case first folds the forms a plain toLowerCase keeps
 * apart (ß and SS, final ς and σ), so "STRASSE" equals "straße" and "ΟΔΟΣ" equals "οδοσ".
 */
export const foldCase = (s: string): string => s.toUpperCase().toLowerCase();
