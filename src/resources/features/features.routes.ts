/**
 * GitLab's own feature flags as a store (Flipper), administrators only: `GET /features`,
 * `POST /features/:name` (a boolean, or a percentage of time or of actors; gates for a feature
 * group, a user, a group or a project), `DELETE /features/:name`, and `GET /features/definitions`
 * (the scenario's `feature_definitions`, in the order given, as GitLab lists its YAML files in
 * the order its glob finds them).
 * gitlab: lib/api/features.rb, lib/feature.rb, lib/feature/target.rb (13.12), doc/api/features.md.
 * @module
 */
import { badRequest, recordNotFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import { blankFeature, Feature, FeatureDefinition } from './features.entities.js'
import type { FeatureDefinitionRecord } from './features.tables.js'
import { findFeature, listFeatures, removeFeature, setBoolean, setPercentage, setTarget, type FeatureTarget } from './features.service.js'

/**
 * `gate_value`: `true`; `0` or `false`; else the integer Ruby's `to_i` reads from the text (its
 * leading digits, 0 for none).
 */
function gateValue(value: string): boolean | number {
  if (value === 'true') return true
  if (value === '0' || value === 'false') return false
  const match = /^\s*([+-]?\d+)/.exec(value)
  return match ? Number(match[1]) : 0
}

interface TargetParams {
  feature_group?: string | undefined
  user?: string | undefined
  group?: string | undefined
  project?: string | undefined
}

/**
 * `Feature::Target#targets`: the feature group, the user (`find_by_username!`: 404 when there is
 * none), the group and the project by full path (left out when there is none), in that order.
 * @throws ApiError 404 `{"message":"404 Not found"}` for an unknown username.
 */
function gateTargets(ctx: Ctx<TargetParams>): FeatureTarget[] {
  const { db, params } = ctx
  const targets: FeatureTarget[] = []
  if (params.feature_group !== undefined) targets.push({ kind: 'group', name: params.feature_group })
  if (params.user !== undefined) {
    const user = db.findUserByUsername(params.user)
    if (!user) throw recordNotFound()
    targets.push({ kind: 'actor', flipperId: `User:${user.id}` })
  }
  if (params.project !== undefined) {
    const project = db.findProjectByFullPath(params.project)
    if (project) targets.push({ kind: 'actor', flipperId: `Project:${project.id}` })
  }
  if (params.group !== undefined) {
    const group = db.findGroupByFullPath(params.group)
    if (group) targets.push({ kind: 'actor', flipperId: `Group:${group.id}` })
  }
  return targets
}

/** `Feature::Definition.get(name)`: the flag's definition, if fakelab has one. */
function definitionOf(db: Db, name: string): FeatureDefinitionRecord | undefined {
  return db.tables.feature_definitions.where('name', name)[0]
}

/** The features routes. */
export const featureRoutes: Route[] = [
  route('GET /features', {
    auth: 'admin',
    handler(ctx) {
      return ok(listFeatures(ctx.db).map((feature) => Feature(feature, definitionOf(ctx.db, feature.name))))
    },
  }),

  // gitlab: lib/api/features.rb `get :definitions`: `Feature::Definition.definitions.values`, not paginated.
  route('GET /features/definitions', {
    auth: 'admin',
    handler(ctx) {
      return ok(ctx.db.tables.feature_definitions.all().sort((a, b) => a.id - b.id).map(FeatureDefinition))
    },
  }),

  // gitlab: lib/api/features.rb `post ':name'` (13.12): `key` excludes the targets; with a target
  // given (`gate_specified?`), true and false act on the targets only.
  route('POST /features/:name', {
    auth: 'admin',
    params: {
      name: p.string({ required: true }),
      value: p.string({ required: true }),
      key: p.string(),
      feature_group: p.string(),
      user: p.string(),
      group: p.string(),
      project: p.string(),
    },
    rules: { mutuallyExclusive: [['key', 'feature_group'], ['key', 'user'], ['key', 'group'], ['key', 'project']] },
    handler(ctx) {
      const { db, params } = ctx
      const targets = gateTargets(ctx)
      const specified = ['feature_group', 'user', 'group', 'project'].some((k) => params[k as keyof TargetParams] !== undefined)
      const value = gateValue(params.value)
      if (typeof value === 'boolean') {
        if (specified) for (const target of targets) setTarget(db, params.name, target, value)
        else setBoolean(db, params.name, value)
      } else {
        // spec-gap: Flipper raises ArgumentError (GitLab's 500) outside 0-100; fakelab answers 400.
        if (value < 0 || value > 100) throw badRequest(`value must be a positive number less than or equal to 100, but was ${value}`)
        setPercentage(db, params.name, params.key === 'percentage_of_actors' ? 'percentage_of_actors' : 'percentage_of_time', value)
      }
      return created(Feature(findFeature(db, params.name) ?? blankFeature(params.name), definitionOf(db, params.name)))
    },
  }),

  route('DELETE /features/:name', {
    auth: 'admin',
    params: { name: p.string({ required: true }) },
    handler(ctx) {
      removeFeature(ctx.db, ctx.params.name)
      return noContent()
    },
  }),
]
