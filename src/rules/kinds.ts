/**
 * The registry behind the satellite areas' kinds: notes, award emoji, to-dos and labels each keep
 * the kinds of record they work on (issues, merge requests, commits...), which the areas owning
 * those records register as they load, so that the lower area never imports the higher one
 * (STYLE.md §2, the area contract). Browser-safe.
 * @module
 */

/**
 * Kinds by their `type`, in registration order.
 * @typeParam T the type names (`'Issue' | 'MergeRequest'`).
 * @typeParam K a kind.
 */
export class KindRegistry<T extends string, K extends { readonly type: T }> {
  readonly #kinds = new Map<T, K>()
  readonly #name: string

  /** @param name what a kind is called in errors (`noteable`, `to-do target`). */
  constructor(name: string) {
    this.#name = name
  }

  /** Registers a kind (its area calls this once, as it loads); a second one of the type replaces it. */
  register(kind: K): void {
    this.#kinds.set(kind.type, kind)
  }

  /**
   * The registered kind of that type.
   * @throws Error `no <name> kind <type> is registered` (a composition bug, not a request error).
   */
  get(type: T): K {
    const kind = this.#kinds.get(type)
    if (!kind) throw new Error(`no ${this.#name} kind ${type} is registered`)
    return kind
  }

  /** The registered kinds, in registration order. */
  all(): readonly K[] {
    return [...this.#kinds.values()]
  }
}
