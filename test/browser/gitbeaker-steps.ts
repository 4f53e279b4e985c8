/**
 * A script of @gitbeaker/rest calls (the real client, unmodified), run as it is in Node against the
 * Node door and, bundled for the browser by esbuild, in the example page against the service worker
 * (page.test.ts). Browser-safe: it imports only the client.
 */
import { Gitlab } from '@gitbeaker/rest'

/** What the script saw, in order; JSON data, so it can leave the page. */
export interface GitbeakerTrace {
  currentUser: unknown
  /** Every page of the project list, two per page, as the client followed the `Link` headers. */
  projects: unknown[]
  created: unknown
  listed: unknown[]
  /** Statuses of the calls that must fail: the deleted label, a private project to a non-member. */
  failures: (number | undefined)[]
}

/**
 * Runs the script against the GitLab at `host` (an origin, like `http://localhost:5173`): max
 * reads himself and every page of the projects, creates, lists and deletes a label of acme/website;
 * then the deleted label and nora's view of a private project must fail.
 */
export async function gitbeakerSteps(host: string): Promise<GitbeakerTrace> {
  const max = new Gitlab({ host, token: 'glpat-max-fakelab' })
  const nora = new Gitlab({ host, token: 'glpat-nora-fakelab' })
  const statusOf = (call: Promise<unknown>) =>
    call.then(() => undefined, (error: { cause?: { response?: Response } }) => error.cause?.response?.status)
  const currentUser = await max.Users.showCurrentUser()
  const projects = await max.Projects.all({ perPage: 2, orderBy: 'id', sort: 'asc' })
  const created = await max.ProjectLabels.create('acme/website', 'from gitbeaker', 'rebeccapurple', { description: 'in a browser' })
  const listed = await max.ProjectLabels.all(20)
  await max.ProjectLabels.remove(20, created.id)
  const failures = [await statusOf(max.ProjectLabels.show(20, created.id)), await statusOf(nora.Projects.show(21))]
  return { currentUser, projects, created, listed, failures }
}
