/**
 * The event pattern of a rule after validation (see pattern.validate.ts). A pattern mirrors the nesting of
 * the event: every field is either a nested pattern object or a non-empty list of matchers (OR). Keys are
 * literal key names: "a.b" is one key, never the path a -> b.
 */
export type Pattern = PatternObject;

export type PatternObject = {
  readonly kind: 'object';
  /** In the order of the source; keys are unique (JSON objects). */
  readonly fields: ReadonlyArray<readonly [key: string, value: PatternValue]>;
};

export type PatternValue = PatternObject | MatcherList;

export type MatcherList = { readonly kind: 'matchers'; readonly matchers: readonly Matcher[] };

/** A JSON leaf: what the matchers look at. Objects are not leaves; arrays are looked through. */
export type Leaf = string | number | boolean | null;

export type Matcher = EqualsMatcher | StringMatcher | NumericMatcher | CidrMatcher | ExistsMatcher | AnythingButMatcher;

/** A literal: string, number (compared by value), true, false or null. */
export type EqualsMatcher = { readonly kind: 'equals'; readonly value: Leaf };

/** The matchers that only ever match strings. */
export type StringMatcher = PrefixMatcher | SuffixMatcher | WildcardMatcher | EqualsIgnoreCaseMatcher;
export type PrefixMatcher = { readonly kind: 'prefix'; readonly value: string };
export type SuffixMatcher = { readonly kind: 'suffix'; readonly value: string };
export type EqualsIgnoreCaseMatcher = { readonly kind: 'equals-ignore-case'; readonly value: string };
export type WildcardMatcher = {
  readonly kind: 'wildcard';
  /** The source text, escapes included. */
  readonly value: string;
  readonly parts: readonly WildcardPart[];
};
/** `*` is `any` (a run of zero or more characters), `?` is `one` (exactly one character). */
export type WildcardPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'one' };

/** JSON numbers only. `=` x is the range [x, x]. */
export type NumericMatcher = { readonly kind: 'numeric'; readonly lower?: Bound; readonly upper?: Bound };
export type Bound = { readonly value: number; readonly inclusive: boolean };

/** A block of addresses in the 128-bit space where IPv4 a.b.c.d is ::ffff:a.b.c.d (see ip.address.ts). */
export type CidrMatcher = { readonly kind: 'cidr'; readonly value: string; readonly block: IpBlock };
export type IpAddress = readonly number[]; // 8 groups of 16 bits
export type IpBlock = { readonly address: IpAddress; readonly prefixLength: number };

/** true: the field has at least one leaf value; false: it has none (absent, empty array, object). */
export type ExistsMatcher = { readonly kind: 'exists'; readonly value: boolean };

/** A leaf that is present and not excluded. Never matches an absent field. */
export type AnythingButMatcher = { readonly kind: 'anything-but'; readonly excluded: Excluded };
export type Excluded =
  | { readonly kind: 'values'; readonly values: ReadonlyArray<string | number> }
  | { readonly kind: 'strings'; readonly matchers: readonly StringMatcher[] };
