"""python-gitlab runners against fakelab: run by test/clients/runners.python-gitlab.test.ts with the base URL as argv[1]."""
import gitlab, sys
gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-max-fakelab")
admin = gitlab.Gitlab(sys.argv[1], private_token="glpat-root-fakelab")
reg = gl.runners.create({"token": "GR1348941WebsiteRunnerToken01", "description": "py-runner", "tag_list": ["py"], "info": {"version": "13.9.0"}})
print("registered", reg.id, len(reg.token))
r = gl.runners.get(reg.id); print("new", r.runner_type, r.status, r.version, r.tag_list)
gl.runners.verify(reg.token); print("verified", gl.runners.get(reg.id).status)
try:
    gl.runners.verify("wrong")
except gitlab.exceptions.GitlabVerifyError as e: print("bad token ->", e.response_code)
print("owned online", [x.id for x in gl.runners.list(scope="online")])
print("owned project_type", [x.id for x in gl.runners.list(type="project_type", tag_list=["py"])])
print("all", [x.id for x in admin.runners.all(all=True)])
print("all shared", [x.id for x in admin.runners.all(scope="shared")])
r.tag_list.append("linux"); r.active = False; r.description = "py-runner-paused"; r.save()
r = gl.runners.get(reg.id); print("saved", r.description, r.active, r.status, r.tag_list)
p2 = gl.projects.get("acme/handbook", lazy=True)
print("enabled", p2.runners.create({"runner_id": reg.id}).id, [x["id"] for x in gl.runners.get(reg.id).projects])
gl.projects.get(20, lazy=True).runners.delete(reg.id); print("disabled", [x["id"] for x in gl.runners.get(reg.id).projects])
try:
    p2.runners.delete(reg.id)
except gitlab.exceptions.GitlabDeleteError as e: print("last project ->", e.response_code, e.error_message)
print("jobs", [j.id for j in gl.runners.get(5, lazy=True).jobs.list(all=True)], [j.status for j in gl.runners.get(5, lazy=True).jobs.list(status="failed")])
gl.runners.delete(reg.id)
try:
    gl.runners.get(reg.id)
except gitlab.exceptions.GitlabGetError as e: print("deleted ->", e.response_code, e.error_message)
