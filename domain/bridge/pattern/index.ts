// The event pattern: validation (400s), the compiled matcher of a bus, and test-pattern.

export { blockContains, parseCidr, parseIp, parseIpAddress } from './ip.address.ts';
export { canonicalDecimal, canonicalNumber, isJsonNumber } from './number.value.ts';
export { formatJsonPath, isPatternError, PatternError } from './pattern.error.ts';
export { matchPattern, testPattern } from './pattern.match.ts';
export type {
  AnythingButMatcher,
  Bound,
  CidrMatcher,
  EqualsMatcher,
  ExistsMatcher,
  IpAddress,
  IpBlock,
  Leaf,
  Matcher,
  MatcherList,
  NumericMatcher,
  Pattern,
  PatternObject,
  PatternValue,
  StringMatcher,
  WildcardMatcher,
  WildcardPart,
} from './pattern.types.ts';
export { parsePattern } from './pattern.validate.ts';
export { type CompiledRules, compileRules } from './rules.compile.ts';
