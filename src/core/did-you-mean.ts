/**
 * Did-you-mean suggestions: the known name closest to a mistyped one, by case-insensitive edit
 * distance. One rule for every place fakelab names what it expected: fault rules and CLI options
 * (`fault rout: unknown key (did you mean "route"?)`), and scenario problems (`unknown user
 * "bobby" (did you mean "bob"?)`, `got "maintainr" (did you mean "maintainer"?)`).
 * Browser-safe. Source: issue 28 (faults); issue 38 item 6 (scenarios).
 * @module
 */

/** Edit distance between two strings, a swap of two neighbours counting as one edit (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

/**
 * Whether `candidate` is close enough to `wanted` (both normalised) to be offered: a difference in
 * case only; else, for names of three characters or more, at most one edit per three characters
 * (at least one), or one being the other with up to three characters more at its end (`bobby`, `bob`).
 */
function closeEnough(wanted: string, candidate: string, score: number): boolean {
  if (score === 0) return true
  if (wanted.length < 3) return false
  if (score <= Math.max(1, Math.floor(wanted.length / 3))) return true
  const [short, long] = wanted.length <= candidate.length ? [wanted, candidate] : [candidate, wanted]
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 3
}

/**
 * The candidate closest to `given` (case-insensitive edit distance, after `normalize`), or
 * `undefined` when none is close enough to help (see `closeEnough`: a suggestion further off
 * helps nobody). Among equally close candidates, the first wins.
 * @param normalize applied to `given` and each candidate before comparing (default: lower case).
 */
function closestName(given: string, candidates: Iterable<string>, normalize: (text: string) => string = (text) => text.toLowerCase()): string | undefined {
  const wanted = normalize(given)
  let best: { candidate: string; score: number } | undefined
  for (const candidate of candidates) {
    const norm = normalize(candidate)
    const score = distance(wanted, norm)
    if (closeEnough(wanted, norm, score) && (!best || score < best.score)) best = { candidate, score }
  }
  return best?.candidate
}

/**
 * ` (did you mean "x"?)` for the closest candidate (`closestName`), or `''` when none is close.
 * @example didYouMean('maintainr', ['developer', 'maintainer']) // ' (did you mean "maintainer"?)'
 */
export function didYouMean(given: string, candidates: Iterable<string>, normalize?: (text: string) => string): string {
  const match = closestName(given, candidates, normalize)
  return match === undefined ? '' : ` (did you mean "${match}"?)`
}
