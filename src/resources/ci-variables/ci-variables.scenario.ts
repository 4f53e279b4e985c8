/**
 * The CI variables part of the scenario format: top-level `ci_variables:` (the instance's),
 * `ci_variables:` of groups and of projects (projects' with an `environment_scope`), loaded into
 * `ci_instance_variables`, `ci_group_variables` and `ci_variables`. Keys, masked values and scopes
 * are checked as the API checks them. Source: issue 36 item 1; gitlab: app/models/concerns/ci/has_variable.rb,
 * app/models/concerns/ci/maskable.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { items, str, type Entry } from '../../scenario/entries.js'
import { at, type Loc } from '../../scenario/problems.js'
import { idSchema } from '../../scenario/scalars.js'

const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/

const baseShape = {
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  key: z.string().regex(/^[a-zA-Z0-9_]{1,255}$/, { error: "must be letters, digits and '_' (at most 255)" }).describe('The variable name (CI_DEPLOY_USER): letters, digits and _.'),
  value: z.string().describe('Its value (a masked one: at least 8 characters of A-Z a-z 0-9 _ + = / @ : . ~ -).'),
  variable_type: z.enum(['env_var', 'file']).default('env_var').describe('env_var (an environment variable) or file (written to a file whose path is the variable). Default env_var.'),
  protected: z.boolean().default(false).describe('Only pipelines on protected branches and tags get it. Default false.'),
  masked: z.boolean().default(false).describe('Hidden in job logs; needs a maskable value. Default false.'),
}

const maskable = (v: { masked: boolean; value: string }) => !v.masked || MASKABLE.test(v.value)
const maskableError = { error: 'a masked value must be at least 8 characters of A-Z a-z 0-9 _ + = / @ : . ~ -', path: ['value'] }

/** An instance or group variable. */
const variableSchema = z.strictObject(baseShape).refine(maskable, maskableError)

/** A project variable, with its environment scope. */
const projectVariableSchema = z
  .strictObject({
    ...baseShape,
    environment_scope: z.string().regex(/^[a-zA-Z0-9_/${}. *-]+$/, { error: "must be * or an environment name or pattern (review/*)" }).default('*').describe('The environments it applies to: * (all), a name (production) or a pattern (review/*). Default *.'),
  })
  .refine(maskable, maskableError)

const groupFields = { ci_variables: z.array(variableSchema).default([]).describe('CI/CD variables of the group (GET /groups/:id/variables); its projects\' pipelines get them.') }
const projectFields = { ci_variables: z.array(projectVariableSchema).default([]).describe('CI/CD variables of the project (GET /projects/:id/variables); its pipelines get them.') }
const rootFields = { ci_variables: z.array(variableSchema).default([]).describe('The instance\'s CI/CD variables (GET /admin/ci/variables); every pipeline gets them.') }

/** The `ci_variables` field of groups, as parsed. */
export type GroupCiVariableFields = FieldsOutput<typeof groupFields>
/** The `ci_variables` field of projects, as parsed. */
export type ProjectCiVariableFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends GroupCiVariableFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface ScenarioProject extends ProjectCiVariableFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

/** Reports a variable whose key (in its environment scope) an earlier one of the list has: the API refuses it. */
function checkDuplicates(report: (loc: Loc, message: string) => void, owner: Entry): void {
  const seen = new Set<string>()
  for (const item of items(owner, 'ci_variables')) {
    const key = str(item.value.key)
    if (key === undefined) continue
    const scope = str(item.value.environment_scope) ?? '*'
    const id = `${key} ${scope}`
    if (seen.has(id)) report(at(item, 'key'), `(${key}) has already been taken${scope === '*' ? '' : ` in environment scope ${scope}`}`)
    seen.add(id)
  }
}

/** The CI variables fragment (see the module comment). */
export const ciVariableFragment: ScenarioFragment = {
  root: rootFields,
  fields: { group: groupFields, project: projectFields },
  collections: [
    { table: 'ci_group_variables', field: 'ci_variables', on: ['group'] },
    { table: 'ci_variables', field: 'ci_variables', on: ['project'] },
  ],
  check(ctx) {
    const report = (loc: Loc, message: string) => ctx.report(loc, message)
    if (ctx.root) checkDuplicates(report, ctx.root)
    for (const group of ctx.model.group) checkDuplicates(report, group)
    for (const project of ctx.model.project) checkDuplicates(report, project)
  },
  load: {
    group(ctx, group, parent) {
      for (const v of group.ci_variables) {
        ctx.stage('ci_group_variables', { id: ctx.idOf(v), group_id: parent.id, key: v.key, value: v.value, variable_type: v.variable_type, protected: v.protected, masked: v.masked, environment_scope: '*' })
      }
    },
    project(ctx, project, parent) {
      for (const v of project.ci_variables) {
        ctx.stage('ci_variables', { id: ctx.idOf(v), project_id: parent.id, key: v.key, value: v.value, variable_type: v.variable_type, protected: v.protected, masked: v.masked, environment_scope: v.environment_scope })
      }
    },
    root(ctx, scenario) {
      const list = (scenario as { ci_variables?: z.output<typeof variableSchema>[] }).ci_variables ?? []
      for (const v of list) ctx.db.tables.ci_instance_variables.insert({ key: v.key, value: v.value, variable_type: v.variable_type, protected: v.protected, masked: v.masked })
    },
  },
}
