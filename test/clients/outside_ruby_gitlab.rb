# The Ruby gem's part of test/clients/outside-clients.test.ts (ARGV[0]: the server URL): as the
# administrator, move project 20 to the other storage and poll the move to finished, then read an
# issue's user agent detail. The gem (4.17) has no methods for either route, so it calls them
# through its own client's get/post. One line per step.
require "gitlab"
admin = Gitlab.client(endpoint: "#{ARGV[0]}/api/v4", private_token: "glpat-root-fakelab")
source = admin.project(20).repository_storage
destination = source == "default" ? "storage-2" : "default"
move = admin.post("/projects/20/repository_storage_moves", body: { destination_storage_name: destination })
states = [move.state]
while !%w[finished failed].include?(states.last) && states.length < 10
  states << admin.get("/projects/20/repository_storage_moves/#{move.id}").state
end
puts "move #{source} -> #{destination} #{states.join(' ')}"
puts "storage now #{admin.project(20).repository_storage}"
detail = admin.get("/projects/20/issues/1/user_agent_detail").to_h
puts "user agent detail #{detail.keys.sort.inspect.gsub('"', "'")} #{!detail['user_agent'].to_s.empty? ? 'True' : 'False'}"
