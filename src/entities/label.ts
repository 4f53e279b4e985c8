/**
 * `LabelBasic` (GitLab 13.x lib/api/entities/label_basic.rb), how labels appear inside other
 * entities (issues with `with_labels_details`).
 * The label routes' own entities (`Label`, `GroupLabel`, `ProjectLabel`) live in the labels area.
 * Source: api-spec.md "Label (project and group)"; gitlab-behaviour.md §12.1.
 * @module
 */
import { textColor } from '../core/color.js'
import { renderSingleLine } from '../core/single-line.js'
import type { Tables } from '../db/schema.js'
import type { PresentCtx } from './urls.js'

/** The labels area's record (merged into `Tables`; this folder imports no area). */
type LabelRecord = Tables['labels']

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
