"""python-gitlab's part of test/clients/outside-clients.test.ts (argv[1]: the server URL): as the
administrator, move project 20 to the other storage and poll the move to finished, then read an
issue's user agent detail. Debian's python-gitlab 3.12 has no storage-move managers, so the moves
go through its http_post/http_get. One line per step."""
import gitlab, sys
admin = gitlab.Gitlab(sys.argv[1], private_token="glpat-root-fakelab")
project = admin.projects.get(20)
source = project.repository_storage
destination = "storage-2" if source == "default" else "default"
move = admin.http_post("/projects/20/repository_storage_moves", post_data={"destination_storage_name": destination})
states = [move["state"]]
while states[-1] not in ("finished", "failed") and len(states) < 10:
    states.append(admin.http_get(f"/projects/20/repository_storage_moves/{move['id']}")["state"])
print("move", source, "->", destination, " ".join(states))
print("storage now", admin.projects.get(20).repository_storage)
detail = project.issues.get(1, lazy=True).user_agent_detail()
print("user agent detail", sorted(detail.keys()), bool(detail["user_agent"]))
