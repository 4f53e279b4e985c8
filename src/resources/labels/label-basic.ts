/**
 * `LabelBasic` (GitLab 13.x lib/api/entities/label_basic.rb), how labels appear inside other
 * entities (issues with `with_labels_details`).
 * The label routes' own entities (`Label`, `GroupLabel`, `ProjectLabel`) are in `labels.entities.ts`;
 * other areas present labels through `labels.public.ts`.
 * Source: api-spec.md "Label (project and group)"; gitlab-behaviour.md §12.1.
 * @module
 */
import { renderSingleLine } from '../../rules/single-line.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { LabelRecord } from './labels.tables.js'

/**
 * `{id, name, color, description, description_html, text_color}`: how labels appear inside other
 * entities. `description_html` is the single-line pipeline's rendering, `""` without a description
 * (gitlab-behaviour.md §12.1).
 */
export function LabelBasic(label: LabelRecord, ctx: PresentCtx) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: renderSingleLine(label.description, ctx.baseUrl),
    text_color: textColor(label.color),
  }
}

/** The colour GitLab stores when none was given. Source: gitlab-behaviour.md §12.4. */
export const DEFAULT_LABEL_COLOR = '#428BCA'

const HEX = /^#(?:[0-9A-Fa-f]{3}){1,2}$/

/** Whether a stored colour passes GitLab's `color` validation: `#RGB` or `#RRGGBB`. */
export function isValidColor(color: string): boolean {
  return HEX.test(color)
}

/**
 * The label's `text_color`: `#333333` on light backgrounds (R+G+B > 500), else `#FFFFFF`.
 * `#RGB` digits are doubled first. An invalid colour is treated as the default colour.
 * gitlab: app/helpers/labels_helper.rb `text_color_for_bg`.
 */
export function textColor(color: string): string {
  const hex = isValidColor(color) ? color : DEFAULT_LABEL_COLOR
  // Digit by digit rather than slicing and parsing: every label in every list is presented through
  // this, and the strings and arrays it made were a sixth of a label list's CPU time (issue 5).
  let sum = 0
  if (hex.length === 4) {
    for (let i = 1; i < 4; i++) sum += hexDigit(hex.charCodeAt(i)) * 17
  } else {
    for (let i = 1; i < 7; i += 2) sum += hexDigit(hex.charCodeAt(i)) * 16 + hexDigit(hex.charCodeAt(i + 1))
  }
  return sum > 500 ? '#333333' : '#FFFFFF'
}

/** The value of one hex digit's char code (`0-9`, `A-F`, `a-f`; the colour passed {@link isValidColor}). */
function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87
}
