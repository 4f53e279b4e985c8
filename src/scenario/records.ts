/**
 * The scenario's records: a document holds users, groups and projects, and everything else is
 * nested inside one of them (a project's `labels:`, a group's `members:`). The types and schemas
 * here hold only what identifies a record: a username, a group's path and parent, a project's path
 * and namespace. Each area adds its fields to these records through its fragment (the schema) and
 * declaration merging (the type):
 *
 * ```ts
 * declare module '../../scenario/records.js' {
 *   interface ScenarioProject extends FreezePeriodFields {}
 * }
 * ```
 * Source: STYLE.md §10.
 * @module
 */
import { z } from 'zod'
import type { FaultRule } from '../core/faults.js'
import { faultRuleSchema } from './faults.js'
import { fullPathSchema, idSchema, pathSchema, timestampSchema } from './scalars.js'

/** What identifies a user: `username` (unique, case-insensitively), and an optional explicit `id`. */
export const USER_IDENTITY = { id: idSchema.optional().describe('Record id; the next free one when absent.'), username: pathSchema.describe('Username, unique (case-insensitive); other records name the user by it.') }

/**
 * What identifies a group: its `path` and the full path of its `parent` group (any order in the
 * file; absent or null for a top-level group). The full path `parent/path` is unique.
 */
export const GROUP_IDENTITY = { id: idSchema.optional().describe('Record id; the next free one when absent.'), path: pathSchema.describe('The path segment (acme); the full path (acme/platform) names the group elsewhere.'), parent: fullPathSchema.nullable().optional().describe('Full path of the parent group; absent or null = a top-level group.') }

/**
 * What identifies a project: its `path` inside `namespace`, a group full path (`acme/platform`) or
 * a username (a personal project).
 */
export const PROJECT_IDENTITY = { id: idSchema.optional().describe('Record id; the next free one when absent.'), path: pathSchema.describe('The path segment; namespace/path is its full path.'), namespace: fullPathSchema.describe('Full path of its group, or the username of its owner (a personal project).') }

type Output<S extends z.core.$ZodShape> = z.output<z.ZodObject<S>>
type UserIdentity = Output<typeof USER_IDENTITY>
type GroupIdentity = Output<typeof GROUP_IDENTITY>
type ProjectIdentity = Output<typeof PROJECT_IDENTITY>

type Input<S extends z.core.$ZodShape> = z.input<z.ZodObject<S>>

/**
 * A user as written in a {@link ScenarioInput} (before validation: fields with defaults may be left
 * out); areas merge their fields' input types in, beside their {@link ScenarioUser} fields:
 * `interface ScenarioUserInput extends FieldsInput<typeof userFields> {}`.
 */
export interface ScenarioUserInput extends Input<typeof USER_IDENTITY> {}
/** A group as written in a {@link ScenarioInput}; see {@link ScenarioUserInput}. */
export interface ScenarioGroupInput extends Input<typeof GROUP_IDENTITY> {}
/** A project as written in a {@link ScenarioInput}; see {@link ScenarioUserInput}. */
export interface ScenarioProjectInput extends Input<typeof PROJECT_IDENTITY> {}

/** A user of a {@link Scenario}; areas merge their fields in (profile, `tokens`, …). */
export interface ScenarioUser extends UserIdentity {}
/** A group of a {@link Scenario}; areas merge their fields in (`labels`, `members`, …). */
export interface ScenarioGroup extends GroupIdentity {}
/** A project of a {@link Scenario}; areas merge their fields in (`labels`, `issues`, …). */
export interface ScenarioProject extends ProjectIdentity {}

/** The top-level keys every scenario has besides its records. */
export const ROOT_FIELDS = {
  /** Format version; `migrate.ts` upgrades older ones and refuses unknown ones. */
  version: z.literal(1).describe('Format version: 1.'),
  /** Freezes the simulator clock at this instant (and is the faker reference date). */
  now: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z): freezes the simulated clock here, and is the reference date of generated values; absent = the wall clock.'),
  /** Faker seed. Default 1. */
  seed: z.int().default(1).describe('Faker seed for generated values. Default 1.'),
  /** Fixture files, relative to this file; their entries come before this file's own. */
  include: z.array(z.string().min(1)).optional().describe('Fixture files, relative to this file; their entries come before this file\'s own.'),
  /** Latency and fault rules in force from the start (`FaultRule`, see `faults.ts`). */
  faults: z.array(faultRuleSchema).optional().describe('Latency and fault rules in force from the start (as PUT /-/fakelab/faults takes them).'),
}

/**
 * A parsed, validated scenario with its includes merged in and defaults applied: what
 * `parseScenario` returns and `applyScenario` loads.
 */
export interface Scenario {
  version: 1
  /** The frozen clock, as a `toISOString()` instant; absent = the wall clock. */
  now?: string | undefined
  /** Faker seed for the values the scenario leaves out. */
  seed: number
  /** Latency and fault rules in force from the start. */
  faults?: FaultRule[] | undefined
  users: ScenarioUser[]
  groups: ScenarioGroup[]
  projects: ScenarioProject[]
}

/**
 * A scenario written in code: the input type of the composed zod schema (fields with defaults,
 * such as a token's `revoked` or a label's `color`, may be left out). `createSimulator({ scenario })`
 * and `sim.loadScenario()` validate it exactly as YAML (a `ScenarioError` listing every problem,
 * at line 0, col 0, with the path in the message). Areas merge their top-level fields in.
 * `include:` needs files: use `loadScenarioFile` from `fakelab/node` for that.
 * @example
 * const scenario: ScenarioInput = { version: 1, users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }] }
 */
export interface ScenarioInput {
  version: 1
  /** Freezes the clock here (an ISO 8601 instant with an offset, or a date). */
  now?: string | undefined
  /** Faker seed; default 1. */
  seed?: number | undefined
  /** Latency and fault rules in force from the start, as `sim.faults.set()` takes them. */
  faults?: FaultRule[] | undefined
  users?: ScenarioUserInput[] | undefined
  groups?: ScenarioGroupInput[] | undefined
  projects?: ScenarioProjectInput[] | undefined
}

/** The record type of each kind. */
export interface ScenarioRecords {
  user: ScenarioUser
  group: ScenarioGroup
  project: ScenarioProject
}
