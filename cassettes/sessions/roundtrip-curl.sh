#!/bin/sh
# The curl round-trip session (cassettes/roundtrip/curl.har): projects paged by following their
# Link headers, a project's labels with counts, issues with labels, milestones and their issue
# lists, merge requests, an issue, a label and a milestone created, updated and deleted, and error
# answers, as a shell script writes them. Every record an answer counts is also listed, so
# `fakelab import` sees it. Run by cassettes/record.mjs with the recorder's URL as $1.
set -eu
API="$1/api/v4"
H='PRIVATE-TOKEN: glpat-max-fakelab'
get() { curl -sf -H "$H" "$@"; }
get -o /dev/null "$API/user"
# Page through the projects by the Link header's rel="next", as a script does.
next="$API/projects?membership=true&per_page=2&order_by=id&sort=asc"
while [ -n "$next" ]; do
  next=$(curl -s -o /dev/null -D - -H "$H" "$next" | tr -d '\r' | sed -n 's/^[Ll]ink: //p' | tr ',' '\n' | sed -n 's/.*<\(.*\)>; rel="next".*/\1/p')
done
get -o /dev/null "$API/projects/acme%2Fwebsite"
get -o /dev/null "$API/issues?scope=all&state=all&per_page=100"
get -o /dev/null "$API/merge_requests?scope=all&state=all&per_page=100"
get -o /dev/null "$API/projects/20/issues?state=all&per_page=100"
get -o /dev/null "$API/projects/20/labels?with_counts=true"
get -o /dev/null "$API/projects/20/issues?labels=frontend&per_page=1&page=2"
get -o /dev/null "$API/groups/acme/milestones"
get -o /dev/null "$API/groups/10/milestones/200/issues"
get -o /dev/null "$API/projects/20/milestones"
get -o /dev/null "$API/projects/20/milestones/220/issues"
get -o /dev/null "$API/projects/20/merge_requests?state=all"
get -o /dev/null "$API/projects/20/merge_requests/1"
iid=$(get -X POST -d 'title=From curl&labels=frontend,docs&milestone_id=220' "$API/projects/20/issues" | sed -n 's/^{"id":[0-9]*,"iid":\([0-9]*\),.*/\1/p')
get -o /dev/null -X PUT -d 'labels=docs&state_event=close' "$API/projects/20/issues/$iid"
get -o /dev/null "$API/projects/20/issues/$iid"
label=$(get -X POST -H 'Content-Type: application/json' -d '{"name":"curl-roundtrip","color":"#123456"}' "$API/projects/20/labels" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')
get -o /dev/null -X PUT --data-urlencode 'description=made by curl' "$API/projects/20/labels/$label"
curl -s -o /dev/null -H "$H" -X POST -H 'Content-Type: application/json' -d '{"name":"curl-roundtrip","color":"#123456"}' "$API/projects/20/labels"
get -o /dev/null -X DELETE "$API/projects/20/labels/$label"
milestone=$(get -X POST -d 'title=curl-roundtrip&due_date=2021-05-01' "$API/projects/20/milestones" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')
get -o /dev/null -X PUT -d 'state_event=close' "$API/projects/20/milestones/$milestone"
get -o /dev/null -X DELETE "$API/projects/20/milestones/$milestone"
curl -s -o /dev/null -H "$H" "$API/projects/9999"
