/**
 * The scenario format, version 1: GitLab fixture data written as nested, human-friendly YAML and
 * validated with zod. `parse.ts` turns YAML text into a {@link Scenario}; `apply.ts` flattens it
 * into the store's records (`src/db/schema.ts`), where relations become ids.
 *
 * Keys are snake_case, as in GitLab's API. Records refer to each other by natural key, never by id:
 * users by `username`, groups by full path (`acme/platform`), labels and milestones by title.
 * Every record may carry an explicit `id` (kept as given); fields left out are filled by a seeded
 * faker in `applyScenario`, so the same file and seed always give the same records.
 *
 * ```yaml
 * version: 1
 * now: "2021-04-01T12:00:00.000Z"   # optional: freezes the simulator clock
 * seed: 42                          # optional faker seed (default 1)
 * include: [../fixtures/users.yaml] # optional fixture files, merged before this file's entries
 * users:
 *   - username: root
 *     admin: true
 *     tokens: [{ token: glpat-root-fakelab, scopes: [api, sudo] }]
 * groups:
 *   - path: acme
 *     visibility: public
 *     members: [{ user: root, access_level: owner }]
 *     labels: [{ name: bug, color: "#d9534f" }]
 * projects:
 *   - path: website
 *     namespace: acme
 *     issues: [{ title: Broken link, labels: [bug], author: root }]
 * ```
 *
 * Source: STYLE.md §10; the record shapes in `src/db/schema.ts`; GitLab model validations as noted
 * in shared/reference/gitlab-behaviour.md (§7 freeze periods, §12 labels).
 * @module
 */
import { isValidCron, isValidCronTimezone } from '../core/cron.js'
import { z } from 'zod'
import { AccessLevel } from '../core/access.js'
import { DEFAULT_LABEL_COLOR, isValidColor, normalizeColor } from '../core/color.js'

// ---- scalars ----------------------------------------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/
const PATH = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/
const PATH_HINT = 'letters, digits, "_", "-" and ".", not starting with "-" or "." nor ending in ".git" or ".atom"'

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value)
  if (!m) return false
  const date = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

function isPath(value: string): boolean {
  return PATH.test(value) && !/\.(git|atom)$/i.test(value)
}

/** A calendar date, `YYYY-MM-DD` (unquoted in YAML is fine: YAML 1.2 reads it as a string). */
export const dateSchema = z
  .string()
  .refine(isCalendarDate, { error: (issue) => `must be a date (YYYY-MM-DD); got ${JSON.stringify(issue.input)}` })

/**
 * An instant, ISO 8601 with an explicit offset (`2021-04-01T12:00:00Z`, `…+02:00`) or a bare date
 * (midnight UTC). Normalised to `toISOString()` form (`2021-04-01T12:00:00.000Z`), the store's
 * `Timestamp`. A time without an offset is refused: it would depend on the machine's time zone.
 */
export const timestampSchema = z
  .string()
  .refine((s) => TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), {
    error: (issue) =>
      `must be an ISO 8601 timestamp with an offset (2021-04-01T12:00:00Z) or a date; got ${JSON.stringify(issue.input)}`,
  })
  .transform((s) => new Date(s.length === 10 ? `${s}T00:00:00Z` : s).toISOString())

/** A positive integer record id. */
export const idSchema = z.int().positive()

/** A positive integer internal id (`iid`), unique per project or group. */
export const iidSchema = z.int().positive()

/** A username, group path or project path segment (GitLab's path format). */
export const pathSchema = z.string().refine(isPath, {
  error: (issue) => `must be a path (${PATH_HINT}); got ${JSON.stringify(issue.input)}`,
})

/** A group full path (`acme/platform`) or, for `namespace`, a username. */
export const fullPathSchema = z.string().refine((s) => s.split('/').every(isPath), {
  error: (issue) => `must be a full path such as "acme/platform"; got ${JSON.stringify(issue.input)}`,
})

/** `public`, `internal` or `private`. */
export const visibilitySchema = z.enum(['public', 'internal', 'private'])

/** Access level names accepted in place of the integers, mapped to GitLab's `Gitlab::Access`. */
export const ACCESS_LEVEL_NAMES = {
  no_access: AccessLevel.NO_ACCESS,
  minimal_access: AccessLevel.MINIMAL_ACCESS,
  guest: AccessLevel.GUEST,
  reporter: AccessLevel.REPORTER,
  developer: AccessLevel.DEVELOPER,
  maintainer: AccessLevel.MAINTAINER,
  owner: AccessLevel.OWNER,
} as const

const ACCESS_LEVELS: readonly number[] = Object.values(ACCESS_LEVEL_NAMES)

/**
 * A member's access level: one of `0, 5, 10, 20, 30, 40, 50`, or its name (`developer`, any case).
 * Output: the integer.
 */
export const accessLevelSchema = z.unknown().transform((value, ctx): number => {
  if (typeof value === 'number' && ACCESS_LEVELS.includes(value)) return value
  if (typeof value === 'string') {
    const name = value.trim().toLowerCase() // own keys only: `constructor` is no access level
    const level = Object.hasOwn(ACCESS_LEVEL_NAMES, name) ? (ACCESS_LEVEL_NAMES as Record<string, number>)[name] : undefined
    if (level !== undefined) return level
  }
  ctx.addIssue({
    code: 'custom',
    input: value,
    message:
      value === undefined
        ? 'is required'
        : `must be one of ${ACCESS_LEVELS.join(', ')} or ${Object.keys(ACCESS_LEVEL_NAMES).join(', ')}; got ${JSON.stringify(value)}`,
  })
  return z.NEVER
})

/** Scopes a personal access token may carry (GitLab 13.x `Gitlab::Auth` scopes). */
export const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'read_repository',
  'write_repository',
  'sudo',
  'read_registry',
  'write_registry',
] as const

/**
 * A label colour: `#RGB`, `#RRGGBB` or a CSS colour keyword; output is what GitLab stores
 * (`normalizeColor`: `orange` → `#FFA500`, hex kept as given). Quote hex colours in YAML:
 * an unquoted `#` starts a comment.
 */
export const colorSchema = z
  .string()
  .transform(normalizeColor)
  .refine(isValidColor, {
    error: (issue) =>
      `must be a valid color code (#RGB, #RRGGBB or a CSS colour name); got ${JSON.stringify(issue.input)}`,
  })

/** A cron expression exactly as the freeze period API accepts it (`isValidCron`, Fugit's grammar). */
export const cronSchema = z.string().refine(isValidCron, {
  error: (issue) => `must be a cron expression with 5 fields such as "0 23 * * 5"; got ${JSON.stringify(issue.input)}`,
})

/** A time zone the freeze period API accepts (`isValidCronTimezone`: IANA or Rails names). */
export const timeZoneSchema = z.string().refine(isValidCronTimezone, {
  error: (issue) => `must be an IANA time zone such as "UTC" or "Europe/Berlin"; got ${JSON.stringify(issue.input)}`,
})

// ---- users ------------------------------------------------------------------------------------

/**
 * A personal access token of a user (`personal_access_tokens`). `token` is the secret clients send
 * in `PRIVATE-TOKEN`; it must be unique across all tokens of the scenario.
 */
export const personalAccessTokenSchema = z.strictObject({
  /** Optional record id. */
  id: idSchema.optional(),
  /** The secret, for example `glpat-root-fakelab`. Required. */
  token: z.string().min(1),
  /** Display name; faker when absent. */
  name: z.string().optional(),
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']),
  /** `YYYY-MM-DD`; absent or null = never expires. */
  expires_at: dateSchema.nullable().optional(),
  revoked: z.boolean().default(false),
  impersonation: z.boolean().default(false),
  created_at: timestampSchema.optional(),
  last_used_at: timestampSchema.nullable().optional(),
})

/** An OAuth access token (`oauth_access_tokens`), sent as `Authorization: Bearer` or `access_token=`. */
export const oauthTokenSchema = z.strictObject({
  id: idSchema.optional(),
  /** The secret. Required, unique across all tokens. */
  token: z.string().min(1),
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']),
  /** An instant; absent or null = never expires. */
  expires_at: timestampSchema.nullable().optional(),
  revoked: z.boolean().default(false),
  created_at: timestampSchema.optional(),
})

/**
 * A user account. `username` is required and unique case-insensitively. Profile strings default to
 * `""`; `name` and timestamps come from faker; `email` defaults to `<username>@example.com`.
 */
export const userSchema = z.strictObject({
  id: idSchema.optional(),
  username: pathSchema,
  name: z.string().optional(),
  email: z.string().optional(),
  /** Default false. */
  admin: z.boolean().default(false),
  /** Default `active`. */
  state: z.enum(['active', 'blocked', 'deactivated']).default('active'),
  avatar_url: z.string().nullable().default(null),
  bio: z.string().default(''),
  location: z.string().default(''),
  public_email: z.string().default(''),
  skype: z.string().default(''),
  linkedin: z.string().default(''),
  twitter: z.string().default(''),
  website_url: z.string().default(''),
  organization: z.string().default(''),
  job_title: z.string().default(''),
  /** null for humans; `project_bot` for the bot user behind a project access token. */
  user_type: z.enum(['project_bot']).nullable().default(null),
  created_at: timestampSchema.optional(),
  last_sign_in_at: timestampSchema.nullable().optional(),
  current_sign_in_at: timestampSchema.nullable().optional(),
  last_activity_on: dateSchema.nullable().optional(),
  can_create_group: z.boolean().default(true),
  projects_limit: z.int().nonnegative().default(100000),
  private_profile: z.boolean().default(false),
  /** Personal access tokens. */
  tokens: z.array(personalAccessTokenSchema).default([]),
  /** OAuth access tokens. */
  oauth_tokens: z.array(oauthTokenSchema).default([]),
})

// ---- groups -----------------------------------------------------------------------------------

/** A group membership: `user` is a username; `access_level` an integer or a name (`developer`). */
export const groupMemberSchema = z.strictObject({
  user: pathSchema,
  access_level: accessLevelSchema,
  /** `YYYY-MM-DD`; absent or null = never expires. */
  expires_at: dateSchema.nullable().optional(),
  created_at: timestampSchema.optional(),
})

/** A project membership: as for groups, but `50` (owner) is not a project access level in 13.x. */
export const projectMemberSchema = groupMemberSchema.extend({
  access_level: accessLevelSchema.refine((level) => level !== AccessLevel.OWNER, {
    error: 'must not be 50 (owner) for a project member; use 40 (maintainer)',
  }),
})

/**
 * A group label. `name` is the label's title (unique per group and its ancestors; no commas);
 * `color` defaults to `#428BCA`; `subscribers` are usernames (`subscriptions` rows).
 */
export const groupLabelSchema = z.strictObject({
  id: idSchema.optional(),
  name: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .refine((s) => !s.includes(','), { error: 'must not contain a comma' }),
  color: colorSchema.default(DEFAULT_LABEL_COLOR),
  description: z.string().nullable().default(null),
  subscribers: z.array(pathSchema).default([]),
  created_at: timestampSchema.optional(),
  updated_at: timestampSchema.optional(),
})

/** A project label: a group label plus an optional `priority` (integer ≥ 0, a `label_priorities` row). */
export const projectLabelSchema = groupLabelSchema.extend({
  priority: z.int().nonnegative().optional(),
})

/**
 * A milestone of a group or project. `title` is required and unique per parent; `iid` is allocated
 * per parent when absent. `start_date` must not be after `due_date`.
 */
export const milestoneSchema = z
  .strictObject({
    id: idSchema.optional(),
    iid: iidSchema.optional(),
    title: z.string().min(1, { error: 'must not be empty' }),
    description: z.string().default(''),
    /** Default `active`. */
    state: z.enum(['active', 'closed']).default('active'),
    due_date: dateSchema.nullable().optional(),
    start_date: dateSchema.nullable().optional(),
    created_at: timestampSchema.optional(),
    updated_at: timestampSchema.optional(),
  })
  .refine((m) => !m.start_date || !m.due_date || m.start_date <= m.due_date, {
    path: ['due_date'],
    error: 'must not be before start_date',
  })

/**
 * A group or subgroup. `parent` is the full path of another group in the scenario (any order);
 * `name` defaults to a faker company name; `visibility` to `private`.
 */
export const groupSchema = z.strictObject({
  id: idSchema.optional(),
  path: pathSchema,
  name: z.string().min(1).optional(),
  /** Full path of the parent group (`acme`), or null/absent for a top-level group. */
  parent: fullPathSchema.nullable().optional(),
  visibility: visibilitySchema.default('private'),
  description: z.string().default(''),
  created_at: timestampSchema.optional(),
  request_access_enabled: z.boolean().default(true),
  lfs_enabled: z.boolean().default(true),
  /** Runner registration token; faker (`GR1348941…`) when absent. */
  runners_token: z.string().min(1).optional(),
  members: z.array(groupMemberSchema).default([]),
  labels: z.array(groupLabelSchema).default([]),
  milestones: z.array(milestoneSchema).default([]),
})

// ---- projects ---------------------------------------------------------------------------------

/** A deploy freeze period: two cron expressions and a time zone (default `UTC`). */
export const freezePeriodSchema = z.strictObject({
  id: idSchema.optional(),
  freeze_start: cronSchema,
  freeze_end: cronSchema,
  cron_timezone: timeZoneSchema.default('UTC'),
  created_at: timestampSchema.optional(),
  updated_at: timestampSchema.optional(),
})

/**
 * An issue. `author`, `assignees` and `closed_by` are usernames (author defaults to the project
 * creator); `labels` are titles of project or ancestor-group labels; `milestone` the title of a
 * project or ancestor-group milestone. A closed issue gets `closed_at` (default `updated_at`) and
 * `closed_by` (default the author).
 */
export const issueSchema = z.strictObject({
  id: idSchema.optional(),
  iid: iidSchema.optional(),
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  state: z.enum(['opened', 'closed']).default('opened'),
  author: pathSchema.optional(),
  assignees: z.array(pathSchema).default([]),
  labels: z.array(z.string()).default([]),
  milestone: z.string().nullable().optional(),
  confidential: z.boolean().default(false),
  discussion_locked: z.boolean().nullable().default(null),
  issue_type: z.enum(['issue', 'incident', 'test_case']).default('issue'),
  due_date: dateSchema.nullable().optional(),
  created_at: timestampSchema.optional(),
  updated_at: timestampSchema.optional(),
  closed_at: timestampSchema.nullable().optional(),
  closed_by: pathSchema.optional(),
  upvotes: z.int().nonnegative().default(0),
  downvotes: z.int().nonnegative().default(0),
  user_notes_count: z.int().nonnegative().default(0),
  /** Seconds. */
  time_estimate: z.int().nonnegative().default(0),
  /** Seconds. */
  total_time_spent: z.int().nonnegative().default(0),
})

/**
 * A merge request (target project = the enclosing project). References work as for issues;
 * `target_branch` defaults to the project's `default_branch`. A merged MR gets `merged_at`
 * (default `updated_at`) and `merged_by` (default the author); a closed one `closed_at`/`closed_by`.
 */
export const mergeRequestSchema = z.strictObject({
  id: idSchema.optional(),
  iid: iidSchema.optional(),
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  state: z.enum(['opened', 'closed', 'merged', 'locked']).default('opened'),
  author: pathSchema.optional(),
  assignees: z.array(pathSchema).default([]),
  labels: z.array(z.string()).default([]),
  milestone: z.string().nullable().optional(),
  source_branch: z.string().min(1).optional(),
  target_branch: z.string().min(1).optional(),
  draft: z.boolean().default(false),
  sha: z.string().min(1).optional(),
  merge_status: z
    .enum(['unchecked', 'checking', 'can_be_merged', 'cannot_be_merged', 'cannot_be_merged_recheck'])
    .default('can_be_merged'),
  created_at: timestampSchema.optional(),
  updated_at: timestampSchema.optional(),
  merged_at: timestampSchema.nullable().optional(),
  merged_by: pathSchema.optional(),
  closed_at: timestampSchema.nullable().optional(),
  closed_by: pathSchema.optional(),
  upvotes: z.int().nonnegative().default(0),
  downvotes: z.int().nonnegative().default(0),
  user_notes_count: z.int().nonnegative().default(0),
})

/**
 * A project. `namespace` is a group full path (`acme/platform`) or a username (a personal
 * project). `name` defaults to the path titleized (`good-stuff` → `Good Stuff`).
 */
export const projectSchema = z.strictObject({
  id: idSchema.optional(),
  path: pathSchema,
  namespace: fullPathSchema,
  name: z.string().min(1).optional(),
  visibility: visibilitySchema.default('private'),
  description: z.string().default(''),
  default_branch: z.string().min(1).default('main'),
  archived: z.boolean().default(false),
  created_at: timestampSchema.optional(),
  last_activity_at: timestampSchema.optional(),
  repository_storage: z.string().min(1).default('default'),
  /** Runner registration token; faker (`GR1348941…`) when absent. */
  runners_token: z.string().min(1).optional(),
  members: z.array(projectMemberSchema).default([]),
  labels: z.array(projectLabelSchema).default([]),
  milestones: z.array(milestoneSchema).default([]),
  freeze_periods: z.array(freezePeriodSchema).default([]),
  issues: z.array(issueSchema).default([]),
  merge_requests: z.array(mergeRequestSchema).default([]),
})

// ---- documents --------------------------------------------------------------------------------

/**
 * A scenario file (version 1). Unknown keys are refused (typos surface as problems), except
 * top-level `x-…` keys, which are free for YAML anchors (`x-defaults: &defaults`).
 */
export const scenarioSchema = z.strictObject({
  /** Format version; `migrate.ts` upgrades older ones and refuses unknown ones. */
  version: z.literal(1),
  /** Freezes the simulator clock at this instant (and is the faker reference date). */
  now: timestampSchema.optional(),
  /** Faker seed. Default 1. */
  seed: z.int().default(1),
  /** Fixture files, relative to this file; their entries come before this file's own. */
  include: z.array(z.string().min(1)).optional(),
  users: z.array(userSchema).default([]),
  groups: z.array(groupSchema).default([]),
  projects: z.array(projectSchema).default([]),
})

/**
 * An included fixture file: a scenario whose `version` may be left out (it is the includer's).
 * `now` and `seed` belong to the top-level scenario only (`parse.ts` reports them).
 */
export const fixtureSchema = scenarioSchema.extend({ version: z.literal(1).optional() })

/**
 * A parsed, validated scenario with its includes merged in (`include` is then absent) and defaults
 * applied. Produced by `parseScenario` / `validateScenarioObject`; consumed by `applyScenario`.
 */
export type Scenario = z.output<typeof scenarioSchema>
/** What a scenario author writes (before defaults), for building scenarios in code. */
export type ScenarioInput = z.input<typeof scenarioSchema>
/** A user of a {@link Scenario}. */
export type ScenarioUser = z.output<typeof userSchema>
/** A personal access token of a {@link ScenarioUser}. */
export type ScenarioPersonalAccessToken = z.output<typeof personalAccessTokenSchema>
/** An OAuth token of a {@link ScenarioUser}. */
export type ScenarioOauthToken = z.output<typeof oauthTokenSchema>
/** A group of a {@link Scenario}. */
export type ScenarioGroup = z.output<typeof groupSchema>
/** A project of a {@link Scenario}. */
export type ScenarioProject = z.output<typeof projectSchema>
/** A group or project membership. */
export type ScenarioMember = z.output<typeof groupMemberSchema>
/** A group or project label (project labels may carry `priority`). */
export type ScenarioLabel = z.output<typeof projectLabelSchema>
/** A group or project milestone. */
export type ScenarioMilestone = z.output<typeof milestoneSchema>
/** A freeze period of a project. */
export type ScenarioFreezePeriod = z.output<typeof freezePeriodSchema>
/** An issue of a project. */
export type ScenarioIssue = z.output<typeof issueSchema>
/** A merge request of a project. */
export type ScenarioMergeRequest = z.output<typeof mergeRequestSchema>
