/**
 * GitLab's closing statements and issue references as patterns, without the database: what
 * merge-requests.closing.ts resolves against the records, and what the cassette import reads of a
 * recorded merge request's text (the issues of its own project it closes).
 * Sources: gitlab: lib/gitlab/closing_issue_extractor.rb, config/initializers/1_settings.rb
 * (`issue_closing_pattern`), app/models/issue.rb (`reference_pattern`), lib/gitlab/path_regex.rb.
 * @module
 */

/** `Gitlab::PathRegex` path segment: a letter, digit, `_` or `.` first, then also `-`. */
const SEGMENT = String.raw`[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*`
/**
 * `Issue.reference_pattern`: an optional project (`project`, or `namespace/…/project`, not glued to
 * a preceding path character) and `#` with the iid.
 */
const ISSUE_REFERENCE = String.raw`(?:(?<![a-zA-Z0-9_.])(?<project>(?:${SEGMENT}/){0,20}${SEGMENT}))?#(?<iid>\d+)`
/** `Banzai::Filter::AutolinkFilter::LINK_PATTERN`: a URL, trailing punctuation left out. */
const LINK = String.raw`[a-z][a-z0-9+.\-]+://[^\s>]+(?<![?!.,:])`
/** `%{issue_ref}` of the pattern: a link or a reference. */
const ISSUE_REF = `(?:(?:${LINK})|(?:${ISSUE_REFERENCE.replace('?<project>', '?:').replace('?<iid>', '?:')}))`
/**
 * GitLab's default `issue_closing_pattern` (13.x, config/initializers/1_settings.rb) with
 * `%{issue_ref}` filled in: Close/Closes/Closed/Closing, Fix/Fixes/Fixed/Fixing,
 * Resolve/Resolves/Resolved/Resolving, Implement/Implements/Implemented/Implementing (first letter
 * either case), an optional colon, then references joined by commas and "and".
 */
const CLOSING_PATTERN = new RegExp(
  String.raw`\b((?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?)(:?) +(?:(?:issues? +)?${ISSUE_REF}(?:(?: *,? +and +| *,? *)?)|([A-Z][A-Z0-9_]+-\d+))+)`,
  'g',
)

/** What the reference extractor finds: a reference, or a link to an issue of this GitLab. */
export const REFERENCE_OR_LINK = new RegExp(`(?<link>${LINK})|${ISSUE_REFERENCE}`, 'g')

/** The closing statements of `text` (`ClosingIssueExtractor#closed_by_message`'s scan), joined by spaces. */
export function closingStatements(text: string): string {
  return [...text.matchAll(CLOSING_PATTERN)].map((m) => m[0]).join(' ')
}

/**
 * The iids of issues of the same project that the closing statements of `text` name by a bare
 * reference (`Closes #1, #2`), each once, in order. References into other projects and links are
 * left out (the caller knows no other project's issues by iid).
 */
export function closingIidsOfOwnProject(text: string): number[] {
  const out: number[] = []
  for (const match of closingStatements(text).matchAll(REFERENCE_OR_LINK)) {
    if (match.groups!.link !== undefined || match.groups!.project !== undefined) continue
    const iid = Number(match.groups!.iid)
    if (!out.includes(iid)) out.push(iid)
  }
  return out
}
