"""python-gitlab arranging issues through fakelab: run by test/clients/python-gitlab-arrange-issues.test.ts with the base URL as argv[1]."""
import gitlab, sys
gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-max-fakelab")
gl.auth()
project = gl.projects.get("acme/website")
issue = project.issues.create({"title": "From python-gitlab", "labels": ["py-one", "py-two"], "assignee_ids": [4]})
print("created", issue.iid, issue.labels, issue.assignee["username"])
issue.state_event = "close"
issue.save()
print("closed", issue.state, issue.attributes["closed_by"]["username"])
issue.state_event = "reopen"
issue.labels = ["py-two"]
issue.save()
print("reopened", issue.state, issue.labels)
note = issue.notes.create({"body": "from python-gitlab"})
print("note", note.body, issue.notes.list(get_all=True)[0].id == note.id)
note.body = "edited"
note.save()
print("note edited", issue.notes.get(note.id).body)
award = note.awardemojis.create({"name": "thumbsup"})
print("note award", award.name, award.awardable_type)
issue_award = issue.awardemojis.create({"name": "thumbsup"})
print("issue upvotes", project.issues.get(issue.iid).upvotes)
try:
    issue.awardemojis.create({"name": "thumbsup"})
except gitlab.exceptions.GitlabCreateError as e: print("again ->", e.response_code)
issue_award.delete()
print("issue upvotes after removal", project.issues.get(issue.iid).upvotes)
issue.unsubscribe()
try:
    issue.unsubscribe()
except gitlab.exceptions.GitlabUnsubscribeError as e: print("unsubscribe again ->", e.response_code)
issue.subscribe()
print("subscribed", project.issues.get(issue.iid).subscribed)
note.delete()
print("notes left", len(issue.notes.list(get_all=True)))
try:
    issue.delete()
except gitlab.exceptions.GitlabDeleteError as e: print("delete as maintainer ->", e.response_code)
admin = gitlab.Gitlab(sys.argv[1], private_token="glpat-root-fakelab")
olive_issue = admin.projects.get(20, lazy=True).issues.create({"title": "As olive"}, sudo="olive")
print("sudo author", olive_issue.author["username"], olive_issue.iid)
admin.projects.get(20, lazy=True).issues.get(issue.iid).delete()
print("after delete", [i.iid for i in project.issues.list(state="opened", get_all=True)])
moved = project.issues.get(olive_issue.iid)
moved.move(30)  # python-gitlab updates the object from the answer
print("moved", moved.project_id, moved.iid)
