/**
 * The features part of the scenario format: the top-level `features:` list, GitLab's persisted
 * feature flags (`GET /features`) with their gate values, in the order given (a name given twice: the later entry stands).
 * gitlab: lib/feature.rb (13.12, Flipper's gates).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, ScenarioFragment } from '../../scenario/fragment.js'
import { blankFeature } from './features.entities.js'

const percentage = z.int().min(0).max(100)

const featureSchema = z.strictObject({
  name: z.string().min(1).describe('The flag name (unique).'),
  enabled: z.boolean().default(false).describe('The boolean gate: on for everyone. Default false.'),
  percentage_of_time: percentage.default(0).describe('Percentage-of-time gate, 0-100. Default 0 (off).'),
  percentage_of_actors: percentage.default(0).describe('Percentage-of-actors gate, 0-100. Default 0 (off).'),
  actors: z.array(z.string().regex(/^(User|Project|Group):\d+$/)).default([]).describe('Actor gate: Flipper ids such as "User:4", "Project:20", "Group:10".'),
  feature_groups: z.array(z.string()).default([]).describe('Group gate: feature group names such as gitlab_team.'),
})

const definitionSchema = z.strictObject({
  name: z.string().min(1).describe('The flag name (its YAML file\'s basename), unique.'),
  type: z.enum(['development', 'ops', 'licensed']).default('development').describe('development, ops or licensed (Feature::Shared::TYPES). Default development.'),
  default_enabled: z.boolean().default(false).describe('The state when nothing is persisted. Default false.'),
  introduced_by_url: z.string().nullable().default(null).describe('The merge request that introduced the flag. Default null.'),
  rollout_issue_url: z.string().nullable().default(null).describe('The rollout issue. Default null.'),
  group: z.string().nullable().default(null).describe('The owning product group, such as "group::source code". Default null.'),
})

const rootFields = {
  features: z.array(featureSchema).optional().describe('GitLab feature flags (GET /features), e.g. [{name: my_flag, enabled: true}]; absent = none persisted.'),
  feature_definitions: z
    .array(definitionSchema)
    .optional()
    .describe('Feature flag definitions (config/feature_flags/<type>/<name>.yml) that GET /features/definitions lists, in this order, and GET /features shows as a flag\'s definition; absent = none.'),
}

declare module '../../scenario/records.js' {
  interface ScenarioInput extends Partial<FieldsInput<typeof rootFields>> {}
}

/** The features fragment (see the module comment). */
export const featureFragment: ScenarioFragment = {
  root: rootFields,
  load: {
    root(ctx, scenario) {
      const definitions = (scenario as { feature_definitions?: z.output<typeof definitionSchema>[] }).feature_definitions ?? []
      for (const d of definitions) {
        // A name given twice: the later entry stands (GitLab refuses to boot with two files of one name).
        const earlier = ctx.db.tables.feature_definitions.where('name', d.name)[0]
        if (earlier) ctx.db.tables.feature_definitions.delete(earlier.id)
        ctx.db.tables.feature_definitions.insert({ ...d })
      }
      const features = (scenario as { features?: z.output<typeof featureSchema>[] }).features ?? []
      for (const f of features) {
        // A name given twice: the later entry's gates stand.
        const earlier = ctx.db.tables.features.where('name', f.name)[0]
        if (earlier) ctx.db.tables.features.delete(earlier.id)
        ctx.db.tables.features.insert({
          ...blankFeature(f.name),
          boolean: f.enabled,
          actors: [...f.actors],
          percentage_of_actors: f.percentage_of_actors,
          percentage_of_time: f.percentage_of_time,
          groups: [...f.feature_groups],
        })
      }
    },
  },
}
