/**
 * The response entity types of the shared presenters (`src/entities/`: users, groups, projects,
 * and what every issuable shows): the JSON shape of each GitLab entity (GitLab 13.x
 * `lib/api/entities/*.rb`), typed from the presenters themselves so a type cannot drift from what
 * is sent. Each area exports its own entity types from its `index.ts`, which the package exports
 * through `resources/index.ts`. `fakelab` exports them for tests that read responses:
 * `const labels = (await res.json()) as Label[]`. Timestamps are ISO 8601 strings.
 * @module
 */
import type { Group as GroupPresenter, GroupDetail as GroupDetailPresenter, BasicGroupDetails as BasicGroupDetailsPresenter } from './entities/group.js'
import type { IssuableTimeStats as IssuableTimeStatsPresenter, IssuableReferences as IssuableReferencesPresenter } from './entities/issuable.js'
import type { ProjectIdentity as ProjectIdentityPresenter, NamespaceBasic as NamespaceBasicPresenter, BasicProjectDetails as BasicProjectDetailsPresenter, Project as ProjectPresenter } from './entities/project.js'
import type { UserBasic as UserBasicPresenter, User as UserPresenter, UserPublic as UserPublicPresenter } from './entities/user.js'

/** The entity a presenter returns. */
type Presented<F extends (...args: never[]) => unknown> = ReturnType<F>

/** GitLab's `Group` entity, as fakelab sends it. */
export type Group = Presented<typeof GroupPresenter>
/** GitLab's `GroupDetail` entity, as fakelab sends it. */
export type GroupDetail = Presented<typeof GroupDetailPresenter>
/** GitLab's `BasicGroupDetails` entity, as fakelab sends it. */
export type BasicGroupDetails = Presented<typeof BasicGroupDetailsPresenter>
/** GitLab's `IssuableTimeStats` entity, as fakelab sends it. */
export type IssuableTimeStats = Presented<typeof IssuableTimeStatsPresenter>
/** GitLab's `IssuableReferences` entity, as fakelab sends it. */
export type IssuableReferences = Presented<typeof IssuableReferencesPresenter>
/** GitLab's `ProjectIdentity` entity, as fakelab sends it. */
export type ProjectIdentity = Presented<typeof ProjectIdentityPresenter>
/** GitLab's `NamespaceBasic` entity, as fakelab sends it. */
export type NamespaceBasic = Presented<typeof NamespaceBasicPresenter>
/** GitLab's `BasicProjectDetails` entity, as fakelab sends it. */
export type BasicProjectDetails = Presented<typeof BasicProjectDetailsPresenter>
/** GitLab's `Project` entity, as fakelab sends it. */
export type Project = Presented<typeof ProjectPresenter>
/** GitLab's `UserBasic` entity, as fakelab sends it. */
export type UserBasic = Presented<typeof UserBasicPresenter>
/** GitLab's `User` entity, as fakelab sends it. */
export type User = Presented<typeof UserPresenter>
/** GitLab's `UserPublic` entity, as fakelab sends it. */
export type UserPublic = Presented<typeof UserPublicPresenter>
