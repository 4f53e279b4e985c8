"""The python-gitlab round-trip session (cassettes/roundtrip/python-gitlab.har): projects paged
through their Link headers, a project's labels with counts, issues with labels, milestones and
their issue lists, merge requests, an issue, a label and a milestone created, updated and deleted,
and error answers, as a python-gitlab user writes them. Every record an answer counts is also
listed, so `fakelab import` sees it. Run by cassettes/record.mjs with the recorder's URL as argv[1]."""
import gitlab, sys
url = sys.argv[1]
gl = gitlab.Gitlab(url, private_token="glpat-max-fakelab")
gl.auth()
list(gl.projects.list(iterator=True, membership=True, per_page=2, order_by="id", sort="asc"))
p = gl.projects.get("acme/website")
gl.issues.list(scope="all", state="all", get_all=True)
gl.mergerequests.list(scope="all", state="all", get_all=True)
p.issues.list(state="all", get_all=True)
p.labels.list(with_counts=True, get_all=True)
list(p.issues.list(labels=["frontend"], per_page=1, iterator=True))
g = gl.groups.get("acme")
g.milestones.list(get_all=True)
g.milestones.get(200).issues()
p.milestones.list(get_all=True)
p.milestones.get(220).issues()
p.mergerequests.list(state="all", get_all=True)
p.mergerequests.get(1)
i = p.issues.create({"title": "From python-gitlab", "labels": "frontend,docs", "milestone_id": 220})
i.labels = ["docs"]; i.state_event = "close"; i.save()
p.issues.get(i.iid)
l = p.labels.create({"name": "py-roundtrip", "color": "#123456"})
l.description = "made by python-gitlab"; l.save()
try:
    p.labels.create({"name": "py-roundtrip", "color": "#123456"})
except gitlab.exceptions.GitlabCreateError:
    pass
l.delete()
m = p.milestones.create({"title": "py-roundtrip", "due_date": "2021-05-01"})
m.state_event = "close"; m.save()
m.delete()
try:
    gl.projects.get(9999)
except gitlab.exceptions.GitlabGetError:
    pass
