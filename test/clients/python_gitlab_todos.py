"""python-gitlab against fakelab, to-dos and notification settings: run by
test/clients/python-gitlab.test.ts with the base URL as argv[1]."""
import gitlab, sys
gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-devon-fakelab")
todos = gl.todos.list()
print("todos", [t.id for t in todos])
print("filtered", [t.id for t in gl.todos.list(type="MergeRequest")])
todo = [t for t in todos if t.id == 601][0]
print("target", todo.target_type, todo.target["iid"], todo.body)
todo.mark_as_done(); print("marked", todo.id, todo.state)
issue = gl.projects.get("acme/website", lazy=True).issues.get(3, lazy=True)
print("todo on issue", issue.todo() is None)
try:
    issue.todo()
except gitlab.exceptions.GitlabTodoError as e: print("second todo ->", e.response_code)
gl.todos.mark_all_as_done(); print("after all", [t.id for t in gl.todos.list()])
print("done", sorted(t.id for t in gl.todos.list(state="done"))[:4])
nadia = gitlab.Gitlab(sys.argv[1], private_token="glpat-nadia-fakelab")
ns = nadia.notificationsettings.get(); print("global", ns.level, ns.notification_email)
ns.level = "mention"; ns.notification_email = "nadia@example.com"; ns.save()
ns = nadia.notificationsettings.get(); print("changed", ns.level, ns.notification_email)
ns.level = "watch"; ns.notification_email = "nadia@work.example.com"; ns.save()
print("restored", nadia.notificationsettings.get().level)
gs = nadia.groups.get("acme", lazy=True).notificationsettings.get()
print("group", gs.level, gs.events["new_note"], gs.events["close_issue"], gs.events["new_epic"])
gs.level = "watch"; gs.save(); print("group saved", nadia.groups.get("acme", lazy=True).notificationsettings.get().level)
ps = nadia.projects.get("acme/website", lazy=True).notificationsettings.get(); print("project", ps.level)
ps.level = "custom"; ps.new_note = True; ps.save()
ps = nadia.projects.get("acme/website", lazy=True).notificationsettings.get(); print("project saved", ps.level, ps.events["new_note"], ps.events["failed_pipeline"])
