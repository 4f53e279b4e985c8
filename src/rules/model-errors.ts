/**
 * Model validation errors (ActiveModel `errors`) and the three shapes GitLab's API gives them:
 * - `render_validation_error!`: 400 `{"message": {"title": ["can't be blank"]}}` ({@link ModelErrors.messages}
 *   with `validationFailed`);
 * - `render_api_error!("Failed to create milestone #{errors.messages}")`: the messages as Ruby
 *   prints a hash, after a verb ({@link failedTo}, {@link ModelErrors.inspect});
 * - `errors.full_messages` sentences (`Access level is not included in the list`), joined with
 *   `to_sentence` where GitLab does ({@link ModelErrors.fullMessages}).
 * Areas collect their validations into one {@link ModelErrors} and render it in the shape their
 * endpoint uses. Source: activemodel/lib/active_model/errors.rb; gitlab: lib/api/helpers.rb.
 * @module
 */
import { apiMessage, type ApiError } from '../core/errors.js'
import { rubyInspectErrors } from '../core/ruby.js'

/** `human_attribute_name` without translations: `route.path` → `Route path`, `access_level` → `Access level`. */
function humanAttributeName(attribute: string): string {
  const words = attribute.replace(/[._]/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A model's validation errors: attribute → messages, in the order they were added (ActiveModel `errors`). */
export class ModelErrors {
  readonly #messages = new Map<string, string[]>()

  /**
   * Errors from a plain `attribute → messages` object, in its key order.
   * @param messages as `validationFailed` takes them.
   */
  static from(messages: Readonly<Record<string, readonly string[]>>): ModelErrors {
    const errors = new ModelErrors()
    for (const [attribute, list] of Object.entries(messages)) for (const message of list) errors.add(attribute, message)
    return errors
  }

  /** `errors.add(attribute, message)`. */
  add(attribute: string, message: string): this {
    const list = this.#messages.get(attribute)
    if (list) list.push(message)
    else this.#messages.set(attribute, [message])
    return this
  }

  /** How many attributes have errors (0: the model is valid). */
  get size(): number {
    return this.#messages.size
  }

  /** `errors.messages` as a plain object, the body of `validationFailed` (`render_validation_error!`). */
  messages(): Record<string, string[]> {
    return Object.fromEntries([...this.#messages].map(([attribute, list]) => [attribute, [...list]]))
  }

  /** `errors.messages.inspect` on Ruby 2.7: `{:title=>["can't be blank"]}`. */
  inspect(): string {
    return rubyInspectErrors(this.#messages)
  }

  /**
   * `errors.full_messages`: each message after its attribute's human name (`Title can't be blank`);
   * `base` messages stand alone.
   */
  fullMessages(): string[] {
    return [...this.#messages].flatMap(([attribute, list]) => list.map((message) => (attribute === 'base' ? message : `${humanAttributeName(attribute)} ${message}`)))
  }
}

/**
 * 400 `{"message": "Failed to <action> <errors.messages.inspect>"}`: `render_api_error!` after a
 * failed save. gitlab: lib/api/milestone_responses.rb, lib/api/groups.rb, lib/api/helpers/notes_helpers.rb.
 * @param action the verb and model as GitLab words them (`create milestone`, `save group`).
 */
export function failedTo(action: string, errors: ModelErrors): ApiError {
  return apiMessage(400, failedToMessage(action, errors))
}

/** The text of {@link failedTo}, for endpoints that wrap it differently (`bad_request!`). */
export function failedToMessage(action: string, errors: ModelErrors): string {
  return `Failed to ${action} ${errors.inspect()}`
}
