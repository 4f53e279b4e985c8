/**
 * Pipelines on push (issue 35 item 3), over both doors with the API's writes (a git push runs the
 * same subscriber: test/contract/git-http/git-cli.test.ts): every pushed branch or tag whose
 * commit has a `.gitlab-ci.yml` gets a pipeline with source `push` (`Git::BranchPushService`,
 * `Git::TagPushService` → `Ci::CreatePipelineService#execute(:push)`, `save_on_errors`), a commit
 * message with `[ci skip]`/`[skip ci]` a skipped one without jobs, a deletion none; a commit without
 * the file none (project 20's main has the default scenario's .gitlab-ci.yml: a commit there gets
 * its jobs, one that deletes the file none).
 * gitlab: app/services/git/base_hooks_service.rb, lib/gitlab/ci/pipeline/chain/skip.rb (13.12).
 * Default scenario: project 30 ivy/tracker (main, no CI definition; max maintainer); the next pipeline id is 1008.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const BLANK_SHA = '0000000000000000000000000000000000000000'

const CI = `
build:
  script: make
release:
  only: [tags]
  script: release
`

contract('pipelines on push (API writes)', {}, ({ api }) => {
  it('a file commit, a [skip ci] commit, a tag and a branch created from the commit; none for a deletion', async () => {
    const main = (await api.get('/projects/30/repository/branches/main', { as: 'max' })).body.commit.id as string
    expect((await api.post('/projects/30/repository/branches', { as: 'max', body: { branch: 'ci-push', ref: 'main' } })).status).toBe(201)
    // The branch's creation: its commit has no file, no pipeline.
    expect((await api.get('/projects/30/pipelines', { as: 'max' })).body).toEqual([])
    const file = await api.post('/projects/30/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'ci-push', content: CI, commit_message: 'Add CI' } })
    expect(file.status).toBe(201)
    const sha = (await api.get('/projects/30/repository/branches/ci-push', { as: 'max' })).body.commit.id as string
    const first = await api.get('/projects/30/pipelines/1008', { as: 'max' })
    expect(first.body).toMatchObject({ id: 1008, sha, ref: 'ci-push', status: 'pending', before_sha: main, tag: false, yaml_errors: null, user: { username: 'max' } })
    const jobs = await api.get('/projects/30/pipelines/1008/jobs', { as: 'max' })
    expect(jobs.body.map((j: { name: string; status: string }) => [j.name, j.status])).toEqual([['build', 'pending']])
    // The commit shows it as its last pipeline.
    expect((await api.get(`/projects/30/repository/commits/${sha}`, { as: 'max' })).body).toMatchObject({ status: 'pending', last_pipeline: { id: 1008 } })

    const skipped = await api.post('/projects/30/repository/commits', { as: 'max', body: { branch: 'ci-push', commit_message: 'Docs only [skip ci]', actions: [{ action: 'create', file_path: 'docs.md', content: 'x\n' }] } })
    expect(skipped.status).toBe(201)
    expect((await api.get('/projects/30/pipelines/1009', { as: 'max' })).body).toMatchObject({ id: 1009, sha: skipped.body.id, ref: 'ci-push', status: 'skipped', before_sha: sha })
    expect((await api.get('/projects/30/pipelines/1009/jobs', { as: 'max' })).body).toEqual([])

    const tag = await api.post('/projects/30/repository/tags', { as: 'max', body: { tag_name: 'v9.9.9', ref: sha, message: 'Annotated' } })
    expect(tag.status).toBe(201)
    const tagged = await api.get('/projects/30/pipelines/1010', { as: 'max' })
    expect(tagged.body).toMatchObject({ sha, ref: 'v9.9.9', tag: true, before_sha: BLANK_SHA, status: 'pending' })
    const tagJobs = await api.get('/projects/30/pipelines/1010/jobs', { as: 'max' })
    expect(tagJobs.body.map((j: { name: string }) => j.name)).toEqual(['release', 'build'])

    expect((await api.post('/projects/30/repository/branches', { as: 'max', body: { branch: 'ci-copy', ref: 'ci-push' } })).status).toBe(201)
    expect((await api.get('/projects/30/pipelines/1011', { as: 'max' })).body).toMatchObject({ ref: 'ci-copy', status: 'skipped', before_sha: BLANK_SHA })
    expect((await api.delete('/projects/30/repository/branches/ci-copy', { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/30/pipelines', { as: 'max' })).body.map((p: { id: number }) => p.id)).toEqual([1011, 1010, 1009, 1008])
    expect((await api.get('/projects/30/pipelines', { as: 'max', query: { yaml_errors: 'true' } })).body).toEqual([])
  })

  it('project 20: a commit on main runs its .gitlab-ci.yml; a commit that deletes the file makes none', async () => {
    const before = (await api.get('/projects/20/pipelines', { as: 'root', query: { per_page: '100' } })).body.length as number
    const made = await api.post('/projects/20/repository/commits', { as: 'root', body: { branch: 'main', commit_message: 'A file', actions: [{ action: 'create', file_path: 'x.txt', content: 'x\n' }] } })
    expect(made.status).toBe(201)
    expect((await api.get('/projects/20/pipelines/1008', { as: 'root' })).body).toMatchObject({ id: 1008, sha: made.body.id, ref: 'main', status: 'pending', before_sha: made.body.parent_ids[0], user: { username: 'root' } })
    const jobs = await api.get('/projects/20/pipelines/1008/jobs', { as: 'root' })
    expect(jobs.body.map((j: { name: string; stage: string; status: string }) => [j.name, j.stage, j.status])).toEqual([
      ['notify-failure', 'deploy', 'created'], ['deploy-production', 'deploy', 'created'], ['lint', 'test', 'created'], ['rspec', 'test', 'created'], ['compile', 'build', 'pending'],
    ])
    const dropped = await api.post('/projects/20/repository/commits', { as: 'root', body: { branch: 'main', commit_message: 'No CI file', actions: [{ action: 'delete', file_path: '.gitlab-ci.yml' }] } })
    expect(dropped.status).toBe(201)
    expect((await api.get('/projects/20/pipelines', { as: 'root', query: { per_page: '100' } })).body).toHaveLength(before + 1)
  })
})
