/**
 * GitLab's fuzzy search (`Gitlab::SQL::Pattern#fuzzy_search`), the one implementation every area's
 * `search` parameter uses: the query is squished and split into terms (a `"quoted phrase"` between
 * spaces stays one term); a record matches when one of its columns contains every term,
 * case-insensitively (`ILIKE '%term%'`). Terms shorter than
 * {@link MIN_CHARS_FOR_PARTIAL_MATCHING} are dropped unless the caller turns the minimum off; when
 * no term is left, the column must equal the whole query, case-insensitively.
 * Source: gitlab: lib/gitlab/sql/pattern.rb (`fuzzy_search`, `fuzzy_arel_match`,
 * `select_fuzzy_words`, `REGEX_QUOTED_WORD`).
 * @module
 */
import { blank, squish } from '../core/ruby.js'

/** Terms shorter than this only match exactly, unless `useMinimumCharLimit` is false. */
export const MIN_CHARS_FOR_PARTIAL_MATCHING = 3

/** `REGEX_QUOTED_WORD`: a double-quoted phrase with a space or the query's end on both sides. */
const QUOTED_TERM = /(?<=^| )"[^"]+"(?= |$)/g

/** Options of {@link fuzzySearch}. */
export interface FuzzySearchOptions {
  /**
   * GitLab's `use_minimum_char_limit`: true (GitLab's default; milestones, `Timebox.search`) drops
   * terms under three characters; false keeps every term (labels, `Label.search`).
   */
  useMinimumCharLimit: boolean
}

/** `select_fuzzy_words`: the unquoted words, then the quoted phrases without their quotes. */
function fuzzyTerms(query: string, options: FuzzySearchOptions): string[] {
  const quoted = query.match(QUOTED_TERM) ?? []
  let rest = query
  for (const phrase of quoted) rest = rest.replace(phrase, '')
  const terms = [...rest.split(/\s+/).filter(Boolean), ...quoted.map((phrase) => phrase.slice(1, -1))]
  return options.useMinimumCharLimit ? terms.filter((term) => term.length >= MIN_CHARS_FOR_PARTIAL_MATCHING) : terms
}

/**
 * Parses a `search` query once and returns a predicate over one record's searchable columns (for
 * labels: title and description), so a list is filtered without re-parsing per record.
 * A blank query matches everything (GitLab adds no condition); a null column matches nothing.
 * @example
 * const matches = fuzzySearch(params.search, { useMinimumCharLimit: false })
 * labels.filter((label) => matches(label.title, label.description))
 */
export function fuzzySearch(query: string, options: FuzzySearchOptions): (...columns: (string | null)[]) => boolean {
  if (blank(query)) return () => true
  const squished = squish(query)
  const terms = fuzzyTerms(squished, options).map((term) => term.toLowerCase())
  const whole = squished.toLowerCase()
  const matchesColumn = (value: string | null): boolean => {
    if (value === null) return false
    const haystack = value.toLowerCase()
    return terms.length === 0 ? haystack === whole : terms.every((term) => haystack.includes(term))
  }
  return (...columns) => columns.some(matchesColumn)
}
