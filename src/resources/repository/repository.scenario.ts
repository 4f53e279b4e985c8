/**
 * The repository part of the scenario format: a project's optional `repository:` section, a script
 * of commits (each on a branch, changing files relative to its first parent), extra branches, and
 * lightweight or annotated tags. The project's `default_branch` is the repository's HEAD. Loading
 * stores the section with its defaults resolved (one `project_repositories` row); the git objects
 * are built from that row on first use. Source: STYLE.md §10; issue 26 item 1.
 *
 * ```yaml
 * repository:
 *   commits:
 *     - { key: init, author: max, date: 2021-03-01T09:00:00Z, message: "Initial commit\n", files: { README.md: "# Website\n" } }
 *     - { branch: feature/login, author: devon, message: "Add login\n", files: { login.js: "login()\n" } }
 *   branches: { stable: init }
 *   tags:
 *     - { name: v1.0.0, ref: main, message: "Release 1.0.0\n" }
 * ```
 * @module
 */
import { z } from 'zod'
import { didYouMean } from '../../core/did-you-mean.js'
import { isRec, items, list, str, type Entry } from '../../scenario/entries.js'
import type { CheckContext, FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { timestampSchema } from '../../scenario/scalars.js'
import { protectDefaultBranch } from './repository.protection.js'
import { isValidRefName } from './repository.ref-names.js'
import type { ProjectRepositoryRecord, RepositoryCommitSpec, RepositoryTagSpec } from './repository.tables.js'

const refNameSchema = z.string().refine(isValidRefName, {
  error: (issue) => `must be a valid git reference name such as "main" or "feature/login"; got ${JSON.stringify(issue.input)}`,
})

const identitySchema = z.union([
  z.string().min(1).describe('A username of the scenario: the commit takes that user\'s name and e-mail.'),
  z.strictObject({
    name: z.string().min(1).describe('The name written in the commit.'),
    email: z.string().min(1).describe('The e-mail written in the commit.'),
  }).describe('A name and e-mail of someone who need not be a user.'),
])

const commitSchema = z.strictObject({
  key: z.string().min(1).optional().describe('A name for this commit that later commits (`parents`, `from`), `branches` and `tags` may use.'),
  branch: refNameSchema.optional().describe('The branch the commit goes on (created when new); default: the project\'s `default_branch`.'),
  from: z.string().min(1).optional().describe('For the first commit of a new branch: where the branch starts (a key, branch or tag); default: the default branch\'s tip.'),
  parents: z.array(z.string().min(1)).optional().describe('The parents (keys, branches or tags as they stand at this commit), first parent first; default: the branch\'s tip. `[]` makes a root commit; two or more a merge commit.'),
  author: identitySchema.optional().describe('Who wrote it: a username or `{ name, email }`; default: the project\'s creator.'),
  committer: identitySchema.optional().describe('Who committed it; default: the author.'),
  date: timestampSchema.optional().describe('Author and committer date; default: one minute after the commit before it, the first at the project\'s `created_at`.'),
  message: z.string().min(1).describe('The commit message, stored as written (end it with a newline as `git commit` does).'),
  files: z.record(z.string().min(1), z.string().nullable()).default({}).describe('Path → new text of the file (UTF-8), or null to delete it; applied to the first parent\'s files.'),
})

const tagSchema = z.strictObject({
  name: refNameSchema.describe('The tag name.'),
  ref: z.string().min(1).optional().describe('What it points at: a commit key, branch or earlier tag; default: the default branch.'),
  message: z.string().min(1).optional().describe('Makes an annotated tag with this message; absent: a lightweight tag.'),
  tagger: identitySchema.optional().describe('Who tagged (annotated tags); default: the project\'s creator.'),
  date: timestampSchema.optional().describe('The tag date (annotated tags); default: the tagged commit\'s committer date.'),
})

const repositorySchema = z.strictObject({
  commits: z.array(commitSchema).default([]).describe('The commits, in the order they are made.'),
  branches: z.record(refNameSchema, z.string().min(1)).default({}).describe('Extra branches: name → what it points at (a commit key, branch or tag), after every commit is made.'),
  tags: z.array(tagSchema).default([]).describe('The tags, in order (a tag may point at an earlier one).'),
}).describe('The project\'s git repository, built on first use; its HEAD is the project\'s `default_branch`, which is protected (Maintainers push and merge) as GitLab protects it on the first push.')

const fields = { repository: repositorySchema.optional() }

/** The `repository` field of projects, as parsed. */
export type RepositoryFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends RepositoryFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** Checks the references of one project's raw `repository:` section. */
function checkRepository(ctx: CheckContext, project: ReturnType<typeof items>[number]): void {
  const repo = project.value.repository
  if (!isRec(repo)) return
  const loc = at(project, 'repository')
  const defaultBranch = str(project.value.default_branch) ?? 'main'
  const branches = new Set<string>()
  const keys = new Set<string>()
  const known = (name: string) => keys.has(name) || branches.has(name)
  for (const [commit, i] of list(repo.commits)) {
    if (!isRec(commit)) continue
    const here = at(loc, 'commits', i)
    for (const field of ['author', 'committer']) if (typeof commit[field] === 'string') ctx.checkUser(at(here, field), commit[field])
    const branch = str(commit.branch) ?? defaultBranch
    for (const [parent, j] of list(commit.parents)) {
      if (typeof parent === 'string' && !known(parent)) ctx.report(at(here, 'parents', j), `no commit key or branch ${JSON.stringify(parent)} before this commit`)
    }
    const from = str(commit.from)
    if (from !== undefined) {
      if (branches.has(branch)) ctx.report(at(here, 'from'), `branch ${JSON.stringify(branch)} already exists: \`from\` only starts a new branch`)
      else if (!known(from)) ctx.report(at(here, 'from'), `no commit key or branch ${JSON.stringify(from)} before this commit`)
    }
    const key = str(commit.key)
    if (key !== undefined) {
      if (keys.has(key)) ctx.report(at(here, 'key'), `commit key ${JSON.stringify(key)} is already used`)
      keys.add(key)
    }
    branches.add(branch)
  }
  if (list(repo.commits).length > 0 && !branches.has(defaultBranch)) {
    ctx.report(loc, `the default branch ${JSON.stringify(defaultBranch)} has no commit (commits without \`branch\` go on it)`)
  }
  if (isRec(repo.branches)) {
    for (const [name, ref] of Object.entries(repo.branches)) {
      if (branches.has(name)) ctx.report(at(loc, 'branches'), `branch ${JSON.stringify(name)} already has commits`, name)
      else if (typeof ref === 'string' && !known(ref)) ctx.report(at(loc, 'branches', name), `no commit key or branch ${JSON.stringify(ref)}`)
    }
    for (const name of Object.keys(repo.branches)) branches.add(name)
  }
  const tags = new Set<string>()
  for (const [tag, i] of list(repo.tags)) {
    if (!isRec(tag)) continue
    const here = at(loc, 'tags', i)
    if (typeof tag.tagger === 'string') ctx.checkUser(at(here, 'tagger'), tag.tagger)
    const ref = str(tag.ref)
    if (ref !== undefined && !known(ref) && !tags.has(ref)) ctx.report(at(here, 'ref'), `no commit key, branch or earlier tag ${JSON.stringify(ref)}`)
    if (ref === undefined && !branches.has(defaultBranch)) ctx.report(here, `the default branch ${JSON.stringify(defaultBranch)} has no commit: give \`ref\``)
    const name = str(tag.name)
    if (name !== undefined) {
      if (tags.has(name)) ctx.report(at(here, 'name'), `tag ${JSON.stringify(name)} is already defined`)
      tags.add(name)
    }
  }
}

/**
 * The branch and tag names a project's raw `repository:` section makes (before parsing: the
 * checks read raw values), or `undefined` when the project has no `repository:` (its merge
 * requests and pipelines then keep the scenario's made-up values, and nothing is checked).
 * Branches: each commit's (`branch`, else the default branch) and `branches:`; tags: `tags:`.
 */
export function scenarioRefNames(project: Entry): { branches: string[]; tags: string[] } | undefined {
  const repo = project.value.repository
  if (!isRec(repo)) return undefined
  const defaultBranch = str(project.value.default_branch) ?? 'main'
  const branches = new Set<string>()
  for (const [commit] of list(repo.commits)) if (isRec(commit)) branches.add(str(commit.branch) ?? defaultBranch)
  if (isRec(repo.branches)) for (const name of Object.keys(repo.branches)) branches.add(name)
  const tags = new Set<string>()
  for (const [tag] of list(repo.tags)) if (isRec(tag) && typeof tag.name === 'string') tags.add(tag.name)
  return { branches: [...branches], tags: [...tags] }
}

/**
 * Checks that `given` names a ref of `kind` in a project's repository (issue 38 item 2): a merge
 * request's branches, a pipeline's or job's ref (a branch or a tag), a release's tag.
 * @param refs the project's {@link scenarioRefNames}.
 * @param project the project's full path, for the message.
 * @returns `undefined` when it does, else the problem: `unknown branch "feature/logn" in the
 *   repository of acme/website (did you mean "feature/login"?); its branches: main, feature/login`.
 */
export function refProblem(kind: 'branch' | 'tag' | 'branch or tag', given: string, refs: { branches: readonly string[]; tags: readonly string[] }, project: string): string | undefined {
  const names = kind === 'branch' ? refs.branches : kind === 'tag' ? refs.tags : [...refs.branches, ...refs.tags]
  if (names.includes(given)) return undefined
  const listed = [
    kind !== 'tag' ? `its branches: ${refs.branches.join(', ') || 'none'}` : '',
    kind !== 'branch' ? `its tags: ${refs.tags.join(', ') || 'none'}` : '',
  ].filter(Boolean).join('; ')
  return `unknown ${kind} ${JSON.stringify(given)} in the repository of ${project}${didYouMean(given, names)}; ${listed}`
}

const MINUTE_MS = 60_000

/** The repository fragment (see the module comment). */
export const repositoryFragment: ScenarioFragment = {
  fields: { project: fields },
  check(ctx) {
    for (const project of ctx.model.project) checkRepository(ctx, project)
  },
  load: {
    project(ctx, p, parent) {
      const repo = p.repository
      if (!repo) return
      const project = ctx.row('project', parent.entry)
      let creator: { name: string; email: string } | undefined
      const identity = (who: z.output<typeof identitySchema> | undefined) => {
        if (typeof who === 'object') return who
        const entry = who === undefined ? undefined : ctx.index.users.get(who.toLowerCase())
        if (entry) return ctx.row('user', entry)
        // The project's creator, found once by id among the scenario's users.
        creator ??= [...ctx.index.users.values()].map((e) => ctx.row('user', e)).find((u) => u.id === project.creator_id)
        return creator ?? { name: 'Administrator', email: 'admin@example.com' }
      }
      let last = Date.parse(project.created_at) - MINUTE_MS
      const commits = repo.commits.map((c): RepositoryCommitSpec => {
        const date = c.date ?? new Date(last + MINUTE_MS).toISOString()
        last = Date.parse(date)
        const author = identity(c.author)
        const committer = c.committer === undefined ? author : identity(c.committer)
        return {
          key: c.key ?? null,
          branch: c.branch ?? project.default_branch,
          parents: c.parents ?? null,
          from: c.from ?? null,
          author_name: author.name,
          author_email: author.email,
          authored_date: date,
          committer_name: committer.name,
          committer_email: committer.email,
          committed_date: date,
          message: c.message,
          files: c.files,
        }
      })
      const tags = repo.tags.map((t): RepositoryTagSpec => {
        const tagger = identity(t.tagger)
        return {
          name: t.name,
          ref: t.ref ?? project.default_branch,
          message: t.message ?? null,
          tagger_name: tagger.name,
          tagger_email: tagger.email,
          tagged_date: t.date ?? null,
        }
      })
      const record: ProjectRepositoryRecord = { id: parent.id, project_id: parent.id, default_branch: project.default_branch, commits, branches: repo.branches, tags }
      ctx.stage('project_repositories', record)
    },
    // GitLab protects the default branch when it is first pushed (ProtectDefaultBranchService).
    root(ctx) {
      for (const row of ctx.db.tables.project_repositories.all()) {
        const project = ctx.db.tables.projects.get(row.project_id)
        const first = row.commits[0]
        if (project && first) protectDefaultBranch(ctx.db, project, first.committed_date)
      }
    },
  },
}
