"""A python-gitlab session that never fetches a project, a group or GET /user: group members,
a project's issues and labels by lazy objects. Run by test/record/import-sessions.test.ts with the
base URL as argv[1] and the token as argv[2]; prints one JSON line of what it saw."""
import gitlab, json, sys
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
members = gl.groups.get("acme", lazy=True).members.list(get_all=True)
issues = gl.projects.get(20, lazy=True).issues.list(get_all=True, per_page=2)
labels = gl.projects.get("acme/platform/api", lazy=True).labels.list(get_all=True)
print(json.dumps({
    "members": sorted([m.username, m.access_level] for m in members),
    "issues": sorted(i.iid for i in issues),
    "labels": sorted(l.name for l in labels),
}))
