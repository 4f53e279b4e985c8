"""The python-gitlab session of the verify corpus (cassettes/python-gitlab.har): labels, group
milestones, freeze periods, paging, sudo, storage moves, issues and their sub-resources, as a python-gitlab user
writes them. Run by cassettes/record.mjs with the recorder's URL as argv[1]."""
import gitlab, sys
url = sys.argv[1]
gl = gitlab.Gitlab(url, private_token="glpat-max-fakelab")
gl.auth()
p = gl.projects.get("acme/website")
p.labels.list(get_all=True)
l = p.labels.create({"name": "py label", "color": "teal"})
l.new_name = "py-label"; l.save()
p.labels.get(l.id)
l = p.labels.get("py-label"); l.subscribe()
try:
    l.subscribe()
except gitlab.exceptions.GitlabSubscribeError:
    pass
l.delete()
g = gl.groups.get("acme")
m = g.milestones.create({"title": "py-ms", "due_date": "2021-05-01"})
m.state_event = "close"; m.save()
g.milestones.get(m.id)
g.milestones.get(200).issues()
m.delete()
fp = gl.http_post("/projects/20/freeze_periods", post_data={"freeze_start": "0 23 * * 5", "freeze_end": "0 7 * * 1"})
gl.http_put(f"/projects/20/freeze_periods/{fp['id']}", post_data={"cron_timezone": "Europe/Berlin"})
gl.http_delete(f"/projects/20/freeze_periods/{fp['id']}")
list(gl.projects.list(iterator=True, per_page=2, order_by="id", sort="asc"))
root = gitlab.Gitlab(url, private_token="glpat-root-fakelab")
root.auth()
root.users.get(4, sudo="devon")
m = root.http_post("/projects/20/repository_storage_moves", post_data={"destination_storage_name": "storage-2"})
root.http_get(f"/project_repository_storage_moves/{m['id']}")
root.http_list("/projects/20/repository_storage_moves", get_all=True)
try:
    root.http_post("/groups/10/repository_storage_moves", post_data={"destination_storage_name": "nope"})
except gitlab.exceptions.GitlabHttpError:
    pass
riley = gitlab.Gitlab(url, private_token="glpat-riley-fakelab")
riley.auth()
t = riley.projects.get("ivy/tracker")
t.issues.list(state="opened", labels=["p1"], order_by="created_at", sort="asc", get_all=True)
riley.groups.get("acme").issues.list(milestone="v1.0", get_all=True)
riley.issues.list(scope="assigned_to_me", get_all=True)
i = t.issues.list(iids=[1], get_all=True)[0]
i.time_estimate("1w 2d")
i.add_spent_time("3h 30m")
i.time_stats()
i.reset_time_estimate(); i.reset_spent_time()
i.notes.create({"body": "from python-gitlab"})
i.participants()
i.related_merge_requests()
i.closed_by()
try:
    i.user_agent_detail()
except gitlab.exceptions.GitlabGetError:
    pass
try:
    gl.projects.get(9999)
except gitlab.exceptions.GitlabGetError:
    pass
