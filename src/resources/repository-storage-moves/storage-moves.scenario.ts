/**
 * The storage moves area's part of the scenario format:
 * - top-level `repository_storages:` — the configured storages (Gitaly shards) with their weights,
 *   and how moves to each progress (by later API requests or by the scenario clock: delay before
 *   `started`, run time) and whether they end `failed`; default: `default` of weight 100 and the
 *   storages records name;
 * - `repository_storage:` of groups (where the group wiki lives; default `default`).
 * Source: STYLE.md §10; gitlab-behaviour.md §6.
 * @module
 */
import { z } from 'zod'
import { items, type Entry } from '../../scenario/entries.js'
import type { CheckContext, FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import type { Scenario } from '../../scenario/records.js'

/** One configured storage. */
const storageSchema = z.strictObject({
  /** gitlab: config/initializers/6_validations.rb allows `[a-zA-Z0-9\-_]+` only. */
  name: z.string().regex(/^[a-zA-Z0-9\-_]+$/, 'must be a storage name of letters, digits, - and _').describe('Storage name: letters, digits, - and _.'),
  weight: z.int().min(0).max(100).default(100).describe('Weight (0 to 100) for placing new repositories. Default 100.'),
  start_after_seconds: z.number().min(0).default(5).describe('Seconds (simulated clock) before a move to this storage starts. Default 5.'),
  run_seconds: z.number().min(0).default(60).describe('Seconds (simulated clock) a move to this storage runs before it finishes. Default 60.'),
  fail_moves: z.boolean().default(false).describe('Make every move to this storage fail. Default false.'),
  progress: z
    .enum(['requests', 'clock'])
    .default('requests')
    .describe(
      'What moves a move to this storage along. `requests` (default): each API request made after it was scheduled ' +
        'is one tick: the first finds it started, the second finds it finished (or failed; a move onto the storage ' +
        'it is on fails at the first), so a client polling on a frozen clock sees what GitLab shows within seconds; ' +
        'the clock ends it too if start_after_seconds and run_seconds pass first. `clock`: the clock alone, so a ' +
        'frozen clock holds the move in its state until the clock is advanced.',
    ),
})

const storagesSchema = z
  .array(storageSchema)
  .min(1)
  .refine((storages) => new Set(storages.map((s) => s.name)).size === storages.length, 'storage names must be unique')
  .optional()
  .describe(
    'The configured storages (Gitaly shards). When written, every repository the scenario places (projects, group ' +
      'wikis, snippets) must be on one of them. Default: `default` (weight 100) plus each storage a record names, ' +
      'implied with weight 0 and the default settings (what `fakelab import` writes needs no list).',
  )

/** A storage with every setting at its default. */
const defaultSettings = (name: string, weight: number) => storageSchema.parse({ name, weight })

const root = { repository_storages: storagesSchema.describe('The repository storages (names unique). Default one storage named default.') }

/** The storages as parsed. */
export type RepositoryStoragesFields = FieldsOutput<typeof root>

const groupFields = { repository_storage: z.string().min(1).default('default').describe('Name of the repository storage of the group\'s wiki. Default default.') }

/** The `repository_storage` field of groups, as parsed. */
export type GroupStorageFields = FieldsOutput<typeof groupFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends GroupStorageFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface Scenario extends Partial<RepositoryStoragesFields> {}
  interface ScenarioInput extends Partial<FieldsInput<typeof root>> {}
}

/**
 * Every repository a scenario places (projects, group wikis, snippets) is on a storage that
 * `repository_storages:` lists: GitLab refuses any other (`Project` validates `repository_storage`
 * against `Gitlab.config.repositories.storages.keys`; a move to it is `not included in the list`),
 * so a misspelt or forgotten storage is a problem at the record's `repository_storage` (or at the
 * record, when it takes the default `default`) rather than a repository no move could leave.
 * Checked only where the scenario writes `repository_storages:` (without it, storages are implied),
 * and skipped when that list is malformed (the schema reports it).
 */
function checkStorages(ctx: CheckContext): void {
  const written = ctx.root?.value.repository_storages
  // Without a list every storage a record names is implied (impliedStorages).
  if (written === undefined || !Array.isArray(written)) return
  const names = written.map((storage: unknown) => (storage as { name?: unknown } | null)?.name)
  if (names.some((name) => typeof name !== 'string')) return
  const known = new Set(names as string[])
  const listed = (names as string[]).join(', ')
  const check = (record: Entry) => {
    const storage = record.value.repository_storage
    if (storage === undefined) {
      if (!known.has('default')) ctx.report(record, `repository_storage: the default storage "default" is not in repository_storages (${listed}): name one of them`)
    } else if (typeof storage === 'string' && !known.has(storage)) {
      ctx.report(at(record, 'repository_storage'), `unknown storage ${JSON.stringify(storage)}: repository_storages lists ${listed}`)
    }
  }
  for (const kind of ['group', 'project'] as const) for (const record of ctx.model[kind]) check(record)
  for (const owner of [...ctx.model.user, ...ctx.model.project]) for (const snippet of items(owner, 'snippets')) check(snippet)
}

/**
 * The storages of a scenario that lists none: `default` (weight 100, as GitLab's
 * `repository_storages_weighted` starts), then each other storage its records name, in file
 * order, with weight 0 (never picked for a move without a destination) and default settings.
 */
function impliedStorages(scenario: Scenario): z.output<typeof storageSchema>[] {
  const names = new Set(['default'])
  for (const group of scenario.groups) names.add(group.repository_storage)
  for (const owner of [...scenario.users, ...scenario.projects]) for (const snippet of owner.snippets) names.add(snippet.repository_storage)
  for (const project of scenario.projects) names.add(project.repository_storage)
  return [...names].map((name) => defaultSettings(name, name === 'default' ? 100 : 0))
}

/** The storage moves fragment (see the module comment). */
export const storageMoveFragment: ScenarioFragment = {
  need: { always: 'load.root inserts the repository_storages rows (implied from every group, project and snippet when not written), load.group a group_wiki_repositories row per group; check reports storages a record names that repository_storages does not list' },
  root,
  fields: { group: groupFields },
  check(ctx) {
    checkStorages(ctx)
  },
  load: {
    root(ctx, scenario) {
      const parsed = scenario as unknown as Scenario
      const storages = parsed.repository_storages ?? impliedStorages(parsed)
      storages.forEach((storage, i) => ctx.db.tables.repository_storages.insert({ id: i + 1, ...storage }))
    },
    group(ctx, group, parent) {
      ctx.stage('group_wiki_repositories', { id: parent.id, group_id: parent.id, shard_name: group.repository_storage })
    },
  },
}
