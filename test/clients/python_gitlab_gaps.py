"""python-gitlab against fakelab (gaps): GET /job with a CI job token, gl.auth() refusing one, a
finished storage move seen in the project's repository_storage, and OAuth tokens of the scenario's
application. Run by test/clients/gaps-clients.test.ts with the base URL as argv[1]."""
import gitlab, requests, sys
url = sys.argv[1]

j = gitlab.Gitlab(url, job_token="job-token-deploy-review")
job = j.http_get("/job")
print("job", job["id"], job["status"], job["name"], job["user"]["username"], job["runner"]["id"], job["pipeline"]["id"])
try:
    j.auth()
except gitlab.exceptions.GitlabAuthenticationError as e: print("job token auth ->", e.response_code)
try:
    gitlab.Gitlab(url, job_token="job-token-finished").http_get("/job")
except gitlab.exceptions.GitlabAuthenticationError as e: print("finished job ->", e.response_code)
try:
    gitlab.Gitlab(url, private_token="glpat-max-fakelab").http_get("/job")
except gitlab.exceptions.GitlabHttpError as e: print("personal token ->", e.response_code, e.error_message)

admin = gitlab.Gitlab(url, private_token="glpat-root-fakelab")
print("storage before", admin.projects.get(20).repository_storage)
print("maintainer sees storage", hasattr(gitlab.Gitlab(url, private_token="glpat-max-fakelab").projects.get(20), "repository_storage"))
move = admin.http_post("/projects/20/repository_storage_moves", post_data={"destination_storage_name": "storage-2"})
requests.post(f"{url}/-/fakelab/clock/advance", json={"seconds": 65}).raise_for_status()
print("move", admin.http_get(f"/projects/20/repository_storage_moves/{move['id']}")["state"])
print("storage after", admin.projects.get(20).repository_storage)
back = admin.http_post("/projects/20/repository_storage_moves", post_data={"destination_storage_name": "default"})
print("next move from", back["source_storage_name"])

o = gitlab.Gitlab(url, oauth_token="oauth-root-fakelab"); o.auth(); print("oauth auth", o.user.username)
try:
    gitlab.Gitlab(url, oauth_token="oauth-devon-revoked").auth()
except gitlab.exceptions.GitlabAuthenticationError as e: print("revoked oauth ->", e.response_code, e.error_message)
