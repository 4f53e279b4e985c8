/**
 * The response entity types: the JSON shape of each GitLab entity fakelab answers with (GitLab
 * 13.x `lib/api/entities/*.rb`), typed from the presenters themselves so a type cannot drift from
 * what is sent. `fakelab` exports them for tests that read responses:
 * `const labels = (await res.json()) as Label[]`. Timestamps are ISO 8601 strings.
 * @module
 */
import type { Group as GroupPresenter, GroupDetail as GroupDetailPresenter, BasicGroupDetails as BasicGroupDetailsPresenter } from './entities/group.js'
import type { IssuableTimeStats as IssuableTimeStatsPresenter, IssuableReferences as IssuableReferencesPresenter, IssueBasic as IssueBasicPresenter, Issue as IssuePresenter } from './entities/issue.js'
import type { LabelBasic as LabelBasicPresenter } from './entities/label.js'
import type { MergeRequestBasic as MergeRequestBasicPresenter, MergeRequest as MergeRequestPresenter } from './entities/merge-request.js'
import type { Milestone as MilestonePresenter } from './entities/milestone.js'
import type { ProjectIdentity as ProjectIdentityPresenter, NamespaceBasic as NamespaceBasicPresenter, BasicProjectDetails as BasicProjectDetailsPresenter, Project as ProjectPresenter } from './entities/project.js'
import type { UserBasic as UserBasicPresenter, User as UserPresenter, UserPublic as UserPublicPresenter } from './entities/user.js'
import type { FreezePeriod as FreezePeriodPresenter } from './resources/freeze-periods/freeze-periods.entities.js'
import type { Note as NotePresenter, UserAgentDetail as UserAgentDetailPresenter, MetricImage as MetricImagePresenter } from './resources/issues/issues.entities.js'
import type { Member as MemberPresenter, BillableMember as BillableMemberPresenter, BillableMembership as BillableMembershipPresenter } from './resources/members/members.entities.js'
import type { NotificationSetting as NotificationSettingPresenter, GlobalNotificationSetting as GlobalNotificationSettingPresenter } from './resources/notification-settings/notification-settings.entities.js'
import type { ResourceAccessToken as ResourceAccessTokenPresenter, ResourceAccessTokenWithToken as ResourceAccessTokenWithTokenPresenter } from './resources/project-access-tokens/project-access-tokens.entities.js'
import type { BasicSnippet as BasicSnippetPresenter, RepositoryStorageMoveEntity } from './resources/repository-storage-moves/storage-moves.entities.js'
import type { Runner as RunnerPresenter, RunnerDetails as RunnerDetailsPresenter, RunnerRegistrationDetails as RunnerRegistrationDetailsPresenter, RunnerJob as RunnerJobPresenter } from './resources/runners/runners.entities.js'
import type { Todo as TodoPresenter } from './resources/todos/todos.entities.js'

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
/** GitLab's `IssueBasic` entity, as fakelab sends it. */
export type IssueBasic = Presented<typeof IssueBasicPresenter>
/** GitLab's `Issue` entity, as fakelab sends it. */
export type Issue = Presented<typeof IssuePresenter>
/** GitLab's `LabelBasic` entity, as fakelab sends it. */
export type LabelBasic = Presented<typeof LabelBasicPresenter>
/** GitLab's `MergeRequestBasic` entity, as fakelab sends it. */
export type MergeRequestBasic = Presented<typeof MergeRequestBasicPresenter>
/** GitLab's `MergeRequest` entity, as fakelab sends it. */
export type MergeRequest = Presented<typeof MergeRequestPresenter>
/** GitLab's `Milestone` entity, as fakelab sends it. */
export type Milestone = Presented<typeof MilestonePresenter>
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
/** GitLab's `FreezePeriod` entity, as fakelab sends it. */
export type FreezePeriod = Presented<typeof FreezePeriodPresenter>
/** GitLab's `Note` entity, as fakelab sends it. */
export type Note = Presented<typeof NotePresenter>
/** GitLab's `UserAgentDetail` entity, as fakelab sends it. */
export type UserAgentDetail = Presented<typeof UserAgentDetailPresenter>
/** GitLab's `MetricImage` entity, as fakelab sends it. */
export type MetricImage = Presented<typeof MetricImagePresenter>
/**
 * GitLab's `Label` (= `GroupLabel`) entity: `LabelBasic`, the counts (only with
 * `with_counts=true`), `subscribed`. Written out: the presenter builds it key by key for speed.
 * gitlab: lib/api/entities/label.rb
 */
export interface Label extends LabelBasic {
  open_issues_count?: number
  closed_issues_count?: number
  open_merge_requests_count?: number
  subscribed: boolean
}
/** GitLab's `GroupLabel` entity: a {@link Label}. */
export type GroupLabel = Label
/** GitLab's `ProjectLabel` entity: a {@link Label}, its `priority` and `is_project_label`. gitlab: lib/api/entities/project_label.rb */
export interface ProjectLabel extends Label {
  priority: number | null
  is_project_label: boolean
}
/** GitLab's `Member` entity, as fakelab sends it. */
export type Member = Presented<typeof MemberPresenter>
/** GitLab's `BillableMember` entity, as fakelab sends it. */
export type BillableMember = Presented<typeof BillableMemberPresenter>
/** GitLab's `BillableMembership` entity, as fakelab sends it. */
export type BillableMembership = Presented<typeof BillableMembershipPresenter>
/** GitLab's `NotificationSetting` entity, as fakelab sends it. */
export type NotificationSetting = Presented<typeof NotificationSettingPresenter>
/** GitLab's `GlobalNotificationSetting` entity, as fakelab sends it. */
export type GlobalNotificationSetting = Presented<typeof GlobalNotificationSettingPresenter>
/** GitLab's `ResourceAccessToken` entity, as fakelab sends it. */
export type ResourceAccessToken = Presented<typeof ResourceAccessTokenPresenter>
/** GitLab's `ResourceAccessTokenWithToken` entity, as fakelab sends it. */
export type ResourceAccessTokenWithToken = Presented<typeof ResourceAccessTokenWithTokenPresenter>
/** GitLab's `BasicSnippet` entity, as fakelab sends it. */
export type BasicSnippet = Presented<typeof BasicSnippetPresenter>
/**
 * GitLab's `<Kind>RepositoryStorageMove` entity; its container is under `project`, `group` or
 * `snippet`.
 */
export type RepositoryStorageMove = RepositoryStorageMoveEntity
/** GitLab's `Runner` entity, as fakelab sends it. */
export type Runner = Presented<typeof RunnerPresenter>
/** GitLab's `RunnerDetails` entity, as fakelab sends it. */
export type RunnerDetails = Presented<typeof RunnerDetailsPresenter>
/** GitLab's `RunnerRegistrationDetails` entity, as fakelab sends it. */
export type RunnerRegistrationDetails = Presented<typeof RunnerRegistrationDetailsPresenter>
/** GitLab's `RunnerJob` entity, as fakelab sends it. */
export type RunnerJob = Presented<typeof RunnerJobPresenter>
/** GitLab's `Todo` entity, as fakelab sends it. */
export type Todo = Presented<typeof TodoPresenter>
