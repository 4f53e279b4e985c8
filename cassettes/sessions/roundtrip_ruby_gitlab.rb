# The Ruby gem's round-trip session (cassettes/roundtrip/ruby-gitlab.har; Debian's ruby-gitlab, the
# `gitlab` gem): projects paged through their Link headers, a project's labels with counts, issues
# with labels, milestones and their issue lists, merge requests, an issue, a label and a milestone
# created, updated and deleted, and error answers, as a Ruby user writes them. Every record an
# answer counts is also listed, so `fakelab import` sees it. Run by cassettes/record.mjs with the
# recorder's URL as ARGV[0].
require 'gitlab'
gl = Gitlab.client(endpoint: "#{ARGV[0]}/api/v4", private_token: 'glpat-max-fakelab')
gl.user
gl.projects(membership: true, per_page: 2, order_by: 'id', sort: 'asc').auto_paginate
gl.project('acme/website')
gl.issues(nil, scope: 'all', state: 'all', per_page: 100).auto_paginate
gl.user_merge_requests(scope: 'all', state: 'all', per_page: 100).auto_paginate
gl.issues(20, state: 'all', per_page: 100)
gl.labels(20, with_counts: true)
gl.issues(20, labels: 'frontend', per_page: 1).auto_paginate
gl.group_milestones('acme')
gl.group_milestone_issues(10, 200)
gl.milestones(20)
gl.milestone_issues(20, 220)
gl.merge_requests(20, state: 'all')
gl.merge_request(20, 1)
issue = gl.create_issue(20, 'From the Ruby gem', labels: 'frontend,docs', milestone_id: 220)
gl.edit_issue(20, issue.iid, labels: 'docs', state_event: 'close')
gl.issue(20, issue.iid)
label = gl.create_label(20, 'rb-roundtrip', '#123456')
gl.edit_label(20, label.id, description: 'made by the Ruby gem')
begin
  gl.create_label(20, 'rb-roundtrip', '#123456')
rescue Gitlab::Error::Conflict
end
gl.delete_label(20, label.id)
milestone = gl.create_milestone(20, 'rb-roundtrip', due_date: '2021-05-01')
gl.edit_milestone(20, milestone.id, state_event: 'close')
gl.delete_milestone(20, milestone.id)
begin
  gl.project(9999)
rescue Gitlab::Error::NotFound
end
