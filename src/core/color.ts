/**
 * Label colours, as GitLab handles them: CSS colour keywords become upper-case hex, `#RGB` /
 * `#RRGGBB` are kept as given, and `text_color` is chosen by brightness.
 * Source: gitlab-behaviour.md §12.4 (gitlabhq:lib/gitlab/color.rb, app/helpers/labels_helper.rb).
 * @module
 */
import colorNames from 'color-name'

/** The colour GitLab stores when none was given. */
export const DEFAULT_LABEL_COLOR = '#428BCA'

const HEX = /^#(?:[0-9A-Fa-f]{3}){1,2}$/

/**
 * CSS colour keyword → upper-case hex, built once from `color-name`. A Map, not the package's
 * plain object: a client's colour must never reach `Object.prototype` (`constructor`,
 * `__proto__`, `toString` are not colours).
 */
const KEYWORD_HEX: ReadonlyMap<string, string> = new Map(
  Object.entries(colorNames as Record<string, [number, number, number]>).map(([name, rgb]) => [
    name,
    `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase(),
  ]),
)

/**
 * What GitLab's label services store for a colour input: stripped; a CSS keyword (any case)
 * becomes its hex in upper case (`red` → `#FF0000`); anything else is returned stripped, as given,
 * for {@link isValidColor} to judge (so `constructor` stays `constructor` and fails validation).
 * Source: gitlab-behaviour.md §12.4; gitlab: lib/gitlab/color.rb `COLOR_NAME_TO_HEX`.
 */
export function normalizeColor(input: string): string {
  const stripped = input.trim()
  if (stripped.startsWith('#')) return stripped
  return KEYWORD_HEX.get(stripped.toLowerCase()) ?? stripped
}

/** Whether a stored colour passes GitLab's `color` validation: `#RGB` or `#RRGGBB`. */
export function isValidColor(color: string): boolean {
  return HEX.test(color)
}

/**
 * The label's `text_color`: `#333333` on light backgrounds (R+G+B > 500), else `#FFFFFF`.
 * `#RGB` digits are doubled first. An invalid colour is treated as the default colour.
 */
export function textColor(color: string): string {
  const hex = isValidColor(color) ? color.slice(1) : DEFAULT_LABEL_COLOR.slice(1)
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
  const sum = [0, 2, 4].reduce((acc, i) => acc + Number.parseInt(full.slice(i, i + 2), 16), 0)
  return sum > 500 ? '#333333' : '#FFFFFF'
}
