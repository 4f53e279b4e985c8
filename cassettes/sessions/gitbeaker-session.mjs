// The @gitbeaker/rest session of the verify corpus (cassettes/gitbeaker.har): members and project
// access tokens, runners, to-dos and notification settings, as a gitbeaker user writes them.
// Run by cassettes/record.mjs with the recorder's URL as argv[2].
import { Gitlab } from '@gitbeaker/rest'

const host = process.argv[2]
const max = new Gitlab({ host, token: 'glpat-max-fakelab' })
const olive = new Gitlab({ host, token: 'glpat-olive-fakelab' })
const root = new Gitlab({ host, token: 'glpat-root-fakelab' })
const settle = (promise) => promise.catch(() => undefined)

// Each client asks who it is first, as gitbeaker users do; verify learns each token's owner from it.
await max.Users.showCurrentUser()
await olive.Users.showCurrentUser()
await root.Users.showCurrentUser()
await max.ProjectMembers.add('acme/website', 30, { userId: 8, expiresAt: '2021-12-31' })
await max.ProjectMembers.show(20, 8)
await max.ProjectMembers.edit(20, 8, 40)
await max.ProjectMembers.all(20)
await max.ProjectMembers.all(20, { includeInherited: true })
await max.ProjectMembers.remove(20, 8)
await settle(max.ProjectMembers.show(20, 8))
await settle(max.ProjectMembers.add(20, 30, { userId: 9 }))
await olive.GroupMembers.add('acme', 20, { userId: 8 })
await olive.GroupMembers.edit('acme', 8, 30)
await olive.GroupMembers.remove('acme', 8)
await olive.GroupMembers.allBillable('acme', { sort: 'name_asc' })
await settle(max.GroupMembers.allBillable('acme'))
const token = await max.ProjectAccessTokens.create('acme/website', 'gitbeaker', ['api'], '2021-12-31')
await max.ProjectAccessTokens.all(20)
await max.ProjectAccessTokens.revoke(20, token.id)
await root.Runners.all({ perPage: 3 })
await root.Runners.show(5)
await root.Runners.allJobs(5, { orderBy: 'id', sort: 'asc', perPage: 1 })
await settle(root.Runners.show(999))
await max.Runners.all({ projectId: 20 })
await root.requester.get('version') // GitLab 13's /version (gitbeaker 43 knows only /metadata)
await root.TodoLists.all()
await root.NotificationSettings.show()
await root.NotificationSettings.edit({ level: 'watch' })
await root.Groups.all({ perPage: 2 })
await root.Groups.show('acme/platform')
await root.GroupMilestones.all('acme', { state: 'active' })
await root.Projects.all({ perPage: 3, orderBy: 'id', sort: 'asc' })
