/**
 * Label colour input, as GitLab's label services take it: CSS colour keywords become upper-case
 * hex, `#RGB` / `#RRGGBB` are kept as given. Validation and `text_color` are presentation, shared
 * with every entity that shows a label (`label-basic.ts`).
 * Source: gitlab-behaviour.md §12.4 (gitlabhq:lib/gitlab/color.rb, app/helpers/labels_helper.rb).
 * @module
 */
import colorNames from 'color-name'

let keywordHex: ReadonlyMap<string, string> | undefined

/**
 * CSS colour keyword → upper-case hex, built from `color-name` on the first colour given rather
 * than at every start (issue 27). A Map, not the package's plain object: a client's colour must
 * never reach `Object.prototype` (`constructor`, `__proto__`, `toString` are not colours).
 */
function keywordHexMap(): ReadonlyMap<string, string> {
  return (keywordHex ??= new Map(
    Object.entries(colorNames as Record<string, [number, number, number]>).map(([name, rgb]) => [
      name,
      `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase(),
    ]),
  ))
}

/**
 * What GitLab's label services store for a colour input: stripped; a CSS keyword (any case)
 * becomes its hex in upper case (`red` → `#FF0000`); anything else is returned stripped, as given,
 * for {@link isValidColor} to judge (so `constructor` stays `constructor` and fails validation).
 * Source: gitlab-behaviour.md §12.4; gitlab: lib/gitlab/color.rb `COLOR_NAME_TO_HEX`.
 */
export function normalizeColor(input: string): string {
  const stripped = input.trim()
  if (stripped.startsWith('#')) return stripped
  return keywordHexMap().get(stripped.toLowerCase()) ?? stripped
}
