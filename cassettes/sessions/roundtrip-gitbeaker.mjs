// The @gitbeaker/rest round-trip session (cassettes/roundtrip/gitbeaker.har): projects paged
// through their Link headers, a project's labels with counts, issues with labels, milestones and
// their issue lists, merge requests, an issue, a label and a milestone created, updated and
// deleted, and error answers, as a gitbeaker user writes them. Every record an answer counts is
// also listed, so `fakelab import` sees it. Run by cassettes/record.mjs with the recorder's URL as argv[2].
import { Gitlab } from '@gitbeaker/rest'

const api = new Gitlab({ host: process.argv[2], token: 'glpat-max-fakelab' })
const settle = (promise) => promise.catch(() => undefined)

await api.Users.showCurrentUser()
await api.Projects.all({ membership: true, perPage: 2, orderBy: 'id', sort: 'asc' })
await api.Projects.show('acme/website')
await api.Issues.all({ scope: 'all', state: 'all' })
await api.MergeRequests.all({ scope: 'all', state: 'all' })
await api.Issues.all({ projectId: 20, state: 'all' })
await api.ProjectLabels.all(20, { withCounts: true })
await api.Issues.all({ projectId: 20, labels: 'frontend', perPage: 1 })
await api.GroupMilestones.all('acme')
await api.GroupMilestones.allAssignedIssues('acme', 200)
await api.ProjectMilestones.all(20)
await api.ProjectMilestones.allAssignedIssues(20, 220)
await api.MergeRequests.all({ projectId: 20, state: 'all' })
await api.MergeRequests.show(20, 1)
const issue = await api.Issues.create(20, 'From gitbeaker', { labels: 'frontend,docs', milestoneId: 220 })
await api.Issues.edit(20, issue.iid, { labels: 'docs', stateEvent: 'close' })
await api.Issues.show(issue.iid, { projectId: 20 })
const label = await api.ProjectLabels.create(20, 'gb-roundtrip', '#123456')
await api.ProjectLabels.edit(20, label.id, { color: '#654321', description: 'made by gitbeaker' })
await settle(api.ProjectLabels.create(20, 'gb-roundtrip', '#123456'))
await api.ProjectLabels.remove(20, label.id)
const milestone = await api.ProjectMilestones.create(20, 'gb-roundtrip', { dueDate: '2021-05-01' })
await api.ProjectMilestones.edit(20, milestone.id, { stateEvent: 'close' })
await api.requester.delete(`projects/20/milestones/${milestone.id}`)
await settle(api.Projects.show(9999))
