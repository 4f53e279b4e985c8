"""python-gitlab against fakelab: a review bot on the default scenario's merge requests (list, read,
comment, label, close) and a CI dashboard's reads of pipelines and jobs. Run by
test/clients/merge-requests-clients.test.ts with the base URL as argv[1]."""
import gitlab, sys

gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-max-fakelab")
project = gl.projects.get("acme/website")
print("open", [(mr.iid, mr.draft) for mr in project.mergerequests.list(state="opened")])
mr = project.mergerequests.get(1)
print("read", mr.title, mr.author["username"], mr.source_branch)
note = mr.notes.create({"body": "Looks good"})
print("note", note.body, note.author["username"])
approved = mr.approve()
print("approved", approved["approved"], [a["user"]["username"] for a in approved["approved_by"]])
approvals = mr.approvals.get()
print("approvals", approvals.user_has_approved, [a["user"]["username"] for a in approvals.approved_by])
# python-gitlab 3.12's approve() and unapprove() replace the object's attributes with their answer (no
# iid, no labels), as they do against GitLab itself, so the merge request is read again after each.
mr = project.mergerequests.get(1)
mr.unapprove()
approvals = mr.approvals.get()
print("unapproved", approvals.user_has_approved, [a["user"]["username"] for a in approvals.approved_by])
mr = project.mergerequests.get(1)
mr.labels = mr.labels + ["needs review"]
mr.state_event = "close"
mr.save()
mr = project.mergerequests.get(1)
print("closed", mr.state, mr.labels)
print("events", [e.action for e in mr.resourcelabelevents.list()], [e.state for e in mr.resourcestateevents.list()])
pipeline = project.pipelines.list(ref="main", status="success")[0]
print("pipeline", pipeline.id, pipeline.status)
print("jobs", [(job.name, job.status) for job in pipeline.jobs.list()])
job = project.jobs.get(pipeline.jobs.list()[0].id)
print("trace", len(job.trace()) >= 0)
