/**
 * The boards part of the scenario format: `boards:` of groups and projects (a name, the two hide
 * switches, and the label lists in order, each naming a label of the parent or its groups), loaded
 * into `boards` and `lists` (every board also gets its backlog and closed lists, as GitLab's
 * `Boards::CreateService` makes them). Source: STYLE.md §10; gitlab: app/models/board.rb, list.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import type { BoardRecord } from './boards.tables.js'

/** An issue board. */
const boardSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z.string().min(1).describe('The board\'s name ("Development").'),
  hide_backlog_list: z.boolean().default(false).describe('Hide the Open list. Default false.'),
  hide_closed_list: z.boolean().default(false).describe('Hide the Closed list. Default false.'),
  lists: z.array(z.string().min(1)).default([]).describe('The label lists, left to right: names of labels of this group or project or of its groups (["frontend", "bug"]).'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const groupFields = { boards: z.array(boardSchema).default([]).describe('Issue boards of this group (GET /groups/:id/boards).') }
const projectFields = { boards: z.array(boardSchema).default([]).describe('Issue boards of this project (GET /projects/:id/boards).') }

/** The `boards` field of groups and projects, as parsed. */
export type BoardFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends BoardFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface ScenarioProject extends BoardFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

function loadBoards(ctx: LoadContext, parent: LoadParent, boards: BoardFields['boards']): void {
  boards.forEach((board, i) => {
    const f = ctx.fake(`board:${parent.key}:${i}`)
    const stamps = ctx.timestamps(f, board, parent.createdAt)
    const record: BoardRecord = {
      id: ctx.idOf(board),
      project_id: parent.type === 'project' ? parent.id : null,
      group_id: parent.type === 'group' ? parent.id : null,
      name: board.name,
      hide_backlog_list: board.hide_backlog_list,
      hide_closed_list: board.hide_closed_list,
      ...stamps,
    }
    ctx.stage('boards', record)
    const list = (list_type: 'backlog' | 'label' | 'closed', label_id: number | null, position: number | null) => ({ board_id: record.id, list_type, label_id, position, ...stamps })
    ctx.db.tables.lists.insert(list('backlog', null, null))
    board.lists.forEach((title, position) => ctx.db.tables.lists.insert(list('label', ctx.titleId('labels', parent, title), position)))
    ctx.db.tables.lists.insert(list('closed', null, null))
  })
}

/** The boards fragment (see the module comment). */
export const boardFragment: ScenarioFragment = {
  fields: { group: groupFields, project: projectFields },
  collections: [{ table: 'boards', field: 'boards', on: ['group', 'project'] }],
  load: {
    group: (ctx, group, parent) => loadBoards(ctx, parent, group.boards),
    project: (ctx, project, parent) => loadBoards(ctx, parent, project.boards),
  },
}
