"""python-gitlab against fakelab: storage moves through the low-level http_* API (each later request
is a tick of the move: the second POST finds it started, the GET after finds it finished), every credential
type, and sudo. Run by test/clients/python-gitlab-auth.test.ts with the base URL as argv[1]."""
import gitlab, sys
url = sys.argv[1]
gl = gitlab.Gitlab(url, private_token="glpat-root-fakelab")
m = gl.http_post("/projects/20/repository_storage_moves", post_data={"destination_storage_name": "storage-2"})
print("scheduled", m["id"], m["state"], m["source_storage_name"], m["destination_storage_name"], m["project"]["path_with_namespace"])
try:
    gl.http_post("/projects/20/repository_storage_moves", post_data={"destination_storage_name": "default"})
except gitlab.exceptions.GitlabHttpError as e: print("read only ->", e.response_code, e.error_message)
print("get", gl.http_get(f"/project_repository_storage_moves/{m['id']}")["state"])
print("project list", [x["id"] for x in gl.http_list("/projects/20/repository_storage_moves", get_all=True)])
print("bulk", gl.http_post("/snippet_repository_storage_moves", post_data={"source_storage_name": "default", "destination_storage_name": "storage-2"}))
print("snippet moves", sorted(x["snippet"]["id"] for x in gl.http_list("/snippet_repository_storage_moves", get_all=True)))
try:
    gl.http_post("/groups/10/repository_storage_moves", post_data={"destination_storage_name": "nope"})
except gitlab.exceptions.GitlabHttpError as e: print("invalid ->", e.response_code, e.error_message)
try:
    gitlab.Gitlab(url, private_token="glpat-devon-fakelab").http_get("/project_repository_storage_moves")
except gitlab.exceptions.GitlabHttpError as e: print("non-admin ->", e.response_code)
o = gitlab.Gitlab(url, oauth_token="oauth-devon-fakelab"); o.auth(); print("oauth auth", o.user.username)
i = gitlab.Gitlab(url, private_token="glpat-nora-impersonation"); i.auth(); print("impersonation auth", i.user.username)
j = gitlab.Gitlab(url, job_token="job-token-running")
try:
    j.auth()
except gitlab.exceptions.GitlabAuthenticationError as e: print("job token auth ->", e.response_code)
print("job token public read", j.projects.get(20).path_with_namespace)
try:
    gitlab.Gitlab(url, private_token="glpat-nora-expired").auth()
except gitlab.exceptions.GitlabAuthenticationError as e: print("expired ->", e.response_code, e.error_message)
s = gitlab.Gitlab(url, oauth_token="oauth-root-fakelab")
print("sudo oauth", s.http_get("/user", sudo="MAX")["username"])
try:
    s.projects.get(21, sudo="nora")
except gitlab.exceptions.GitlabGetError as e: print("sudo as nora ->", e.response_code)
try:
    gitlab.Gitlab(url, private_token="glpat-max-fakelab").http_get("/user", sudo="devon")
except gitlab.exceptions.GitlabHttpError as e: print("sudo non-admin ->", e.response_code, e.error_message)
