/**
 * The shape of the delete rules an area declares about its tables (`Area.cascade`): the foreign
 * keys that GitLab's column conventions do not show. The store keeps the composed list
 * ({@link Db.cascade}); `rules/cascade.ts` applies it. Data only, so the scenario layer's `Area`
 * type and the store can both name it without importing the rules. Source: gitlab: db/structure.sql
 * (foreign keys), app/services/users/migrate_to_ghost_user_service.rb.
 * @module
 */

/** A column value a {@link CascadeRule} row must hold (`namespace_type: 'group'`). */
export type CascadeValue = string | number | boolean | null

/**
 * One delete rule. Tables and columns are GitLab's names (`snake_case`); `parent` is the table of
 * the deleted rows.
 * - `cascade`: a row of `table` whose `column` names a deleted `parent` row (and that holds every
 *   value of `where`) is deleted with it (`ON DELETE CASCADE`), and cascades in turn. For foreign
 *   keys not named `<parent>_id` (`parent_id`, `namespace_id`, `container_id`).
 * - `nullify`: a row of `table` that belongs to a deleted `parent` row keeps living, with `column`
 *   set to null instead (`ON DELETE SET NULL`).
 * - `typeName`: a polymorphic `*_type` value (`Namespace`) that names rows of `parent` besides the
 *   model name of the table itself.
 * - `ghost`: `column` of `table` names a user, and moves to the ghost user when that user is
 *   deleted (`Users::MigrateToGhostUserService`), besides every `author_id`.
 */
export type CascadeRule =
  | { readonly kind: 'cascade'; readonly table: string; readonly column: string; readonly parent: string; readonly where?: Readonly<Record<string, CascadeValue>> }
  | { readonly kind: 'nullify'; readonly table: string; readonly column: string; readonly parent: string }
  | { readonly kind: 'typeName'; readonly parent: string; readonly name: string }
  | { readonly kind: 'ghost'; readonly table: string; readonly column: string }
