/**
 * The to-dos part of the scenario format: `todos:` of projects, each a to-do of one `user` about
 * an issue (`issue: <iid>`) or a merge request (`merge_request: <iid>`) of that project, loaded
 * into `todos`. `author` defaults to the owner (as for `marked`), `action` to `assigned`, `state`
 * to `pending`; `body` is the text of the note that raised it (absent: the target's title is shown).
 * Source: STYLE.md §10; api-spec.md "To-do"; gitlab-behaviour.md §8.
 * @module
 */
import { z } from 'zod'
import { items } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { fast, fastObject, GIVE_UP, withFastItems } from '../../scenario/fast-records.js'
import { idSchema, iidSchema, isPath, isTimestamp, normalTimestamp, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import { TODO_ACTIONS, type TodoRecord } from './todos.tables.js'

/** A to-do of a user about an issue or merge request of the enclosing project. */
/** A to-do, as a scenario writes it. */
export const todoSchema = z
  .strictObject({
    id: idSchema.optional().describe('Record id; the next free one when absent.'),
    /** The owner (username). Required. */
    user: pathSchema.describe('The owner (username).'),
    /** Who caused it (username); default the owner. */
    author: pathSchema.optional().describe('Who caused it (username); default the owner.'),
    action: z.enum(TODO_ACTIONS).default('assigned').describe('Why it exists: assigned, mentioned, build_failed, marked, approval_required, ... Default assigned.'),
    /** The iid of an issue of this project. */
    issue: iidSchema.optional().describe('The iid of an issue of this project (give issue or merge_request).'),
    /** The iid of a merge request of this project. */
    merge_request: iidSchema.optional().describe('The iid of a merge request of this project (give issue or merge_request).'),
    state: z.enum(['pending', 'done']).default('pending').describe('pending or done. Default pending.'),
    /** The note text that raised it; absent: the target's title. */
    body: z.string().optional().describe('The note text that raised it; the target\'s title when absent.'),
    created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
    updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  })
  .refine((todo) => (todo.issue === undefined) !== (todo.merge_request === undefined), {
    error: 'needs exactly one target: issue: <iid> or merge_request: <iid>',
  })

/**
 * {@link todoSchema} the fast way, for lists of plainly valid to-dos (see `scenario/fast-records.ts`):
 * the same fields in the same order, and the same one-target rule; `test/unit/scale-load-helpers.test.ts`
 * holds it to the schema.
 */
const fastTodoFields = fastObject({
  id: fast.optional(fast.positiveInt),
  user: fast.required(fast.refined(isPath)),
  author: fast.optional(fast.refined(isPath)),
  action: fast.withDefault('assigned', fast.oneOf(TODO_ACTIONS)),
  issue: fast.optional(fast.positiveInt),
  merge_request: fast.optional(fast.positiveInt),
  state: fast.withDefault('pending', fast.oneOf(['pending', 'done'])),
  body: fast.optional(fast.string),
  created_at: fast.optional(fast.refined(isTimestamp, normalTimestamp)),
  updated_at: fast.optional(fast.refined(isTimestamp, normalTimestamp)),
})

/** See {@link fastTodoFields}. */
export function fastTodo(input: unknown): unknown {
  const todo = fastTodoFields(input)
  if (todo === GIVE_UP || (todo.issue === undefined) === (todo.merge_request === undefined)) return GIVE_UP
  return todo
}

const fields = { todos: withFastItems(z.array(todoSchema), fastTodo).default([]).describe('To-do items on issues and merge requests of this project.') }

/** The `todos` field of projects, as parsed. */
export type TodoFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends TodoFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/**
 * The iids a project's `field` records get: explicit ones, then the others numbered on past the
 * highest, in order (what `LoadContext.iids` allocates).
 */
function allocatedIids(records: readonly { value: Record<string, unknown> }[]): Set<number> {
  const explicit = records.map((r) => r.value.iid).filter((iid): iid is number => typeof iid === 'number')
  let next = Math.max(0, ...explicit)
  const implicit = records.filter((r) => typeof r.value.iid !== 'number').map(() => ++next)
  return new Set([...explicit, ...implicit])
}

/** Staged rows of one table indexed by `project_id`, as far as they have been read. */
interface ProjectIndex<R> {
  indexed: number
  byProject: Map<number, R[]>
}

/** One index per staged array (the loader appends to the same array for the whole load). */
const projectIndexes = new WeakMap<readonly object[], ProjectIndex<object>>()

/**
 * The staged rows of `project_id` `projectId`, through an index that reads each staged row once
 * per load: filtering every staged row for every project made a scenario of 2,000 projects and
 * 100,000 issues take minutes to load (issue 13).
 */
function stagedOfProject<R extends { project_id: number }>(rows: readonly R[], projectId: number): readonly R[] {
  let index = projectIndexes.get(rows) as ProjectIndex<R> | undefined
  if (!index) {
    index = { indexed: 0, byProject: new Map() }
    projectIndexes.set(rows, index as unknown as ProjectIndex<object>)
  }
  for (; index.indexed < rows.length; index.indexed++) {
    const row = rows[index.indexed]!
    let list = index.byProject.get(row.project_id)
    if (!list) index.byProject.set(row.project_id, (list = []))
    list.push(row)
  }
  return index.byProject.get(projectId) ?? []
}

/** The to-dos fragment (see the module comment). */
export const todoFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'todos', field: 'todos', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      const iids = { issue: allocatedIids(items(project, 'issues')), merge_request: allocatedIids(items(project, 'merge_requests')) }
      for (const todo of items(project, 'todos')) {
        ctx.checkUser(at(todo, 'user'), todo.value.user)
        ctx.checkUser(at(todo, 'author'), todo.value.author)
        for (const kind of ['issue', 'merge_request'] as const) {
          const iid = todo.value[kind]
          if (typeof iid === 'number' && !iids[kind].has(iid)) {
            ctx.report(at(todo, kind), `unknown ${kind.replace('_', ' ')} ${kind === 'issue' ? '#' : '!'}${iid} (not in this project)`)
          }
        }
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      if (project.todos.length === 0) return
      const issues = stagedOfProject(ctx.stagedRows('issues'), parent.id)
      const mergeRequests = stagedOfProject(ctx.stagedRows('merge_requests'), parent.id)
      project.todos.forEach((todo, i) => {
        const f = ctx.fake(`todo:${parent.key}:${i}`)
        const target =
          todo.issue !== undefined
            ? { type: 'Issue' as const, row: issues.find((issue) => issue.iid === todo.issue) }
            : { type: 'MergeRequest' as const, row: mergeRequests.find((mr) => mr.iid === todo.merge_request) }
        if (!target.row) throw new Error(`scenario: to-do target not found in ${parent.key}`)
        const user_id = ctx.userId(todo.user)
        const record: TodoRecord = {
          id: ctx.idOf(todo),
          user_id,
          project_id: parent.id,
          author_id: todo.author !== undefined ? ctx.userId(todo.author) : user_id,
          target_type: target.type,
          target_id: target.row.id,
          action_name: todo.action,
          state: todo.state,
          note: todo.body ?? null,
          ...ctx.timestamps(f, todo, target.row.created_at),
        }
        ctx.stage('todos', record)
      })
    },
  },
}
