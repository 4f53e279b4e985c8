/**
 * The mount list: one line per resource area, in alphabetical order (like GitLab's api.rb). Each
 * area's `index.ts` exports exactly one value, its `Area`, plus its public types (records, scenario
 * fields, response entities); `index.ts` beside this file collects the areas from this module in the
 * order of their names. What other areas may call lives in the area's `<area>.public.ts`.
 * Adding an area: a new folder, one line here, `npm run route-table` (the static route table its
 * routes are registered from until it loads), its data in `scenarios/default.yaml`, and its rows
 * in the README coverage table.
 * @module
 */
export * from './application-settings/index.js' // GET|PUT /application/settings (issue 37 item 7)
export * from './applications/index.js' // OAuth applications (issue 37)
export * from './authentication/index.js'
export * from './award-emoji/index.js' // arrange-issues: award emoji (issue 16 part 3)
export * from './badges/index.js' // project and group badges (issue 34 item 5)
export * from './boards/index.js' // issue boards and their lists (issue 34 item 5)
export * from './broadcast-messages/index.js' // broadcast messages (issue 37)
export * from './ci-lint/index.js' // CI lint and templates (issue 36 item 4)
export * from './ci-triggers/index.js' // pipeline triggers and schedules (issue 36 item 2)
export * from './ci-variables/index.js' // instance CI variables (issue 36 item 1)
export * from './custom-attributes/index.js' // custom attributes of users, groups, projects (issue 37 item 7)
export * from './deploy-keys/index.js' // deploy keys of the instance and projects (issue 37)
export * from './deploy-tokens/index.js' // deploy tokens of the instance, projects and groups (issue 37)
export * from './deployments/index.js' // deployments, from the API and from CI jobs (issue 36 item 3)
export * from './environments/index.js' // deployment environments (issue 36 item 3)
export * from './events/index.js' // contribution events from the domain-event channel, and the events API (issue 37 item 6)
export * from './features/index.js' // GitLab's feature flags as a store (issue 37 item 7)
export * from './forks/index.js' // forks and fork links (issue 34 item 7)
export * from './freeze-periods/index.js'
export * from './git-http/index.js' // git's smart HTTP: clone, fetch, push (issue 35)
export * from './groups/index.js'
export * from './hooks/index.js' // project hooks and hook delivery (issue 34 item 5)
export * from './instance-metrics/index.js' // sidekiq metrics and application statistics (issue 36 item 7)
export * from './invitations/index.js' // project and group invitations by email (issue 37 item 5)
export * from './issue-links/index.js' // issue links area (issue 25 item 6)
export * from './issues/index.js'
export * from './keys/index.js' // GET /keys/:id and /keys?fingerprint= across users' and deploy keys (issue 37 item 3)
export * from './labels/index.js'
export * from './markdown/index.js' // POST /markdown (issue 37 item 8)
export * from './members/index.js'
export * from './merge-requests/index.js'
export * from './milestones/index.js' // group and project milestones (one area since issue 25's project milestones)
export * from './namespaces/index.js' // namespaces area (arrange-directory)
export * from './notes/index.js' // notes and discussions on issues and merge requests (issue 25 item 4)
export * from './notification-settings/index.js'
export * from './packages/index.js' // package registry reads and generic packages (issue 36 item 6)
export * from './pages/index.js' // Pages domains and unpublishing (issue 34 item 7)
export * from './project-access-tokens/index.js'
export * from './project-actions/index.js' // stars, archive, housekeeping, storage, shared projects (issue 34 item 7)
export * from './project-export/index.js' // project and group export and import (issue 34 item 7)
export * from './projects/index.js'
export * from './protected-tags/index.js' // protected tags and their effect on tag writes and pushes (reach)
export * from './releases/index.js' // releases area (issue 26 item 4)
export * from './remote-mirrors/index.js' // remote (push) mirrors as a store (issue 34 item 7)
export * from './repository/index.js' // repository area (issue 26)
export * from './repository-languages/index.js' // GET /projects/:id/languages (issue 34 item 7)
export * from './repository-storage-moves/index.js'
export * from './resource-events/index.js' // resource events area (issue 25 item 5)
export * from './runner-jobs/index.js' // the runner's API for jobs (issue 36)
export * from './runners/index.js' // runners area (issue 7)
export * from './search/index.js' // basic search (issue 37 item 8)
export * from './services/index.js' // project services (integrations) (issue 34 item 6)
export * from './sharing/index.js' // groups and projects shared with groups (issue 25, python-gitlab's test_groups)
export * from './snippets/index.js' // personal and project snippets (issue 34 item 3)
export * from './system-hooks/index.js' // system hooks store (issue 37); deliveries are collaboration's
export * from './templates/index.js' // .gitlab-ci.yml, .gitignore, Dockerfile and license templates (issue 36 item 4)
export * from './todos/index.js'
export * from './topics/index.js' // project topics (GitLab 14.5+), for python-gitlab 3.12's suite
export * from './uploads/index.js' // project uploads and their web URL (issue 34 item 1)
export * from './user-emails/index.js' // users' emails (issue 37 item 3)
export * from './user-gpg-keys/index.js' // users' GPG keys (issue 37 item 3)
export * from './user-keys/index.js' // users' SSH keys, the keys table deploy keys share (issue 37)
export * from './user-status/index.js' // a user's status (issue 37 item 6)
export * from './users/index.js'
export * from './version/index.js'
export * from './wikis/index.js' // project wikis (issue 34 item 4)
