"""python-gitlab members, billable members and project access tokens against fakelab (issue 9).
Run by test/clients/python-gitlab.test.ts with the base URL as argv[1]."""
import gitlab, sys
url = sys.argv[1]
gl = gitlab.Gitlab(url, private_token="glpat-max-fakelab")
p = gl.projects.get("acme/website")
print("tokens", [(t.id, t.name, t.active) for t in p.access_tokens.list()])
t = p.access_tokens.create({"name": "py-token", "scopes": ["read_api"], "expires_at": "2021-12-31"})
print("token created", t.name, t.scopes, t.expires_at, len(t.token))
bot = gitlab.Gitlab(url, private_token=t.token)
bot.auth(); print("bot user", bot.user.username, bot.user.bot)
try:
    bot.projects.get(20).labels.create({"name": "nope", "color": "#000000"})
except gitlab.exceptions.GitlabCreateError as e: print("read_api write ->", e.response_code)
p.access_tokens.delete(t.id); print("token revoked")
try:
    bot.projects.get(20)
except gitlab.exceptions.GitlabAuthenticationError as e: print("revoked token ->", e.response_code)
m = p.members.create({"user_id": 8, "access_level": 30, "expires_at": "2021-12-31"}); print("member added", m.username, m.access_level, m.expires_at)
m.access_level = 40; m.save(); print("member updated", p.members.get(8).access_level)
print("project members", [(x.username, x.access_level) for x in p.members.list()])
print("project members_all", sorted((x.username, x.access_level) for x in p.members_all.list(all=True)))
print("member_all get", p.members_all.get(6).access_level)
m.delete(); print("member removed", [x.id for x in p.members.list()])
try:
    p.members.create({"user_id": 9, "access_level": 30})
except gitlab.exceptions.GitlabCreateError as e: print("again ->", e.response_code, e.error_message)
owner = gitlab.Gitlab(url, private_token="glpat-olive-fakelab")
g = owner.groups.get("acme")
gm = g.members.create({"user_id": 8, "access_level": 20}); print("group member added", gm.username, gm.access_level)
gm.access_level = 30; gm.save(); print("group member updated", g.members.get(8).access_level)
print("group members", [x.username for x in g.members.list()])
print("subgroup members_all", [x.username for x in owner.groups.get("acme/platform").members_all.list()])
gm.delete(); print("group member removed")
bm = g.billable_members.list(sort="name_asc"); print("billable", [x.username for x in bm])
print("memberships", [(x.source_full_name, x.access_level["string_value"]) for x in bm[1].memberships.list()])
bm[1].delete(); print("billable removed", [x.username for x in g.billable_members.list()])
