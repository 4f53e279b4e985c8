/**
 * The release presenters: `Release` and `Releases::Link`, with `Releases::Source`,
 * `Releases::Evidence` and `MilestoneWithStats` inside. What a caller without `download_code` (a
 * guest of a private project) sees is cut as 13.x cuts it: the name becomes `Release-<id>`, and
 * `tag_name`, `commit`, `commit_path`, `tag_path`, the sources, the evidences and `_links.self` are
 * left out. gitlab: lib/api/entities/release.rb, releases/link.rb, releases/source.rb,
 * releases/evidence.rb, milestone_with_stats.rb; app/presenters/release_presenter.rb,
 * releases/evidence_presenter.rb, releases/link_presenter.rb (13.x).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import { userBasicOrNull } from '../../entities/user.js'
import { renderSingleLine } from '../../rules/single-line.js'
import { Milestone, milestoneById } from '../milestones/milestones.public.js'
import { issuesOfProject } from '../issues/issues.public.js'
import { Commit, peelToCommit, repositoryOf } from '../repository/repository.public.js'
import type { ReleaseLinkRecord, ReleaseRecord } from './releases.tables.js'

/** The archive formats of a release's `assets.sources`, in GitLab's order (`Releases::Source::FORMATS`). */
const SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const

/** What the caller may do, as the entity and the presenter ask it. */
export interface ReleaseAbilities {
  /** `download_code` on the project. */
  downloadCode: boolean
  /** `update_release` (Developer+): `_links.edit_url` is shown. */
  updateRelease: boolean
  /** `read_milestone` on the project. */
  readMilestone: boolean
}

/** A tag name as a Rails route helper puts it in a path segment. */
function segment(tag: string): string {
  return encodeURIComponent(tag).replace(/%2B/g, '+').replace(/%40/g, '@')
}

/** `https://host/<project>/-/releases/<tag>` (`project_release_url`). */
function releaseUrl(ctx: PresentCtx, project: ProjectRecord, tag: string): string {
  return `${projectWebUrl(ctx, project)}/-/releases/${segment(tag)}`
}

/** The commit a release presents: its stored sha, or (scenario releases) its tag's commit now. */
function releaseCommitId(ctx: PresentCtx, project: ProjectRecord, release: ReleaseRecord): string | null {
  if (release.sha !== null) return release.sha
  const repo = repositoryOf(ctx.db, project)
  const target = repo.tags.get(release.tag)
  return target === undefined ? null : (peelToCommit(repo, target) ?? null)
}

/**
 * `Releases::Link` (13.x): `{id, name, url, direct_asset_url, external, link_type}`.
 * `direct_asset_url` is the release's `downloads/<filepath>` URL when the link has a file path, else
 * its url; `external` says the url is not under the project's web URL (`Releases::Link#internal?`).
 */
export function ReleaseLink(link: ReleaseLinkRecord, release: ReleaseRecord, project: ProjectRecord, ctx: PresentCtx) {
  const web = projectWebUrl(ctx, project)
  return {
    id: link.id,
    name: link.name,
    url: link.url,
    direct_asset_url: link.filepath ? `${releaseUrl(ctx, project, release.tag)}/downloads/${link.filepath.replace(/^\//, '')}` : link.url,
    external: !link.url.startsWith(web),
    link_type: link.link_type,
  }
}

/** `links.sorted`: newest first (`created_at DESC`), the id breaking ties. */
export function sortedLinks(links: readonly ReleaseLinkRecord[]): ReleaseLinkRecord[] {
  return [...links].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
}

/** `MilestoneWithStats`: `Milestone` and `issue_stats {total, closed}` (the milestone's issues in the release's project). */
function MilestoneWithStats(ctx: PresentCtx, project: ProjectRecord, milestoneId: number) {
  const milestone = milestoneById(ctx.db, milestoneId)
  if (!milestone) return null
  const issues = issuesOfProject(ctx.db, project.id).filter((i) => i.milestone_id === milestoneId)
  return { ...Milestone(milestone, ctx), issue_stats: { total: issues.length, closed: issues.filter((i) => i.state === 'closed').length } }
}

/**
 * `Release` (13.x), in its field order. `description_html` only when asked for
 * (`include_html_description=true`); `milestones` only when there are some and the caller reads
 * milestones; `commit_path`, `tag_path`, `_links.self` and `_links.edit_url` only when set
 * (`expose_nil: false`).
 * spec-gap: `description_html` is the single-line pipeline's rendering (HTML-escaped text with
 * links), not GitLab's full Markdown pipeline, which fakelab does not have.
 */
export function Release(release: ReleaseRecord, project: ProjectRecord, ctx: PresentCtx, can: ReleaseAbilities, options: { includeHtmlDescription?: boolean } = {}) {
  const web = projectWebUrl(ctx, project)
  const path = `/${ctx.db.projectFullPath(project)}`
  const commitId = can.downloadCode ? releaseCommitId(ctx, project, release) : null
  const links = sortedLinks(ctx.db.tables.release_links.where('release_id', release.id)).map((l) => ReleaseLink(l, release, project, ctx))
  const milestones = release.milestone_ids.map((id) => MilestoneWithStats(ctx, project, id)).filter((m) => m !== null)
  const self = releaseUrl(ctx, project, release.tag)
  const author = userBasicOrNull(ctx, release.author_id)
  return {
    name: can.downloadCode ? release.name : `Release-${release.id}`,
    ...(can.downloadCode ? { tag_name: release.tag } : {}),
    description: release.description,
    ...(options.includeHtmlDescription ? { description_html: renderSingleLine(release.description, ctx.baseUrl) } : {}),
    created_at: release.created_at,
    released_at: release.released_at,
    ...(author ? { author } : {}),
    ...(can.downloadCode ? { commit: commitId === null ? null : Commit(repositoryOf(ctx.db, project), commitId, project, ctx) } : {}),
    upcoming_release: release.released_at > ctx.now,
    ...(milestones.length > 0 && can.readMilestone ? { milestones } : {}),
    ...(can.downloadCode && commitId !== null ? { commit_path: `${path}/-/commit/${commitId}` } : {}),
    ...(can.downloadCode ? { tag_path: `${path}/-/tags/${segment(release.tag)}` } : {}),
    assets: {
      count: (can.downloadCode ? SOURCE_FORMATS.length : 0) + links.length,
      ...(can.downloadCode
        ? { sources: SOURCE_FORMATS.map((format) => ({ format, url: `${web}/-/archive/${release.tag}/${project.path}-${release.tag}.${format}` })) }
        : {}),
      links,
    },
    ...(can.downloadCode
      ? { evidences: release.evidences.map((e) => ({ sha: e.summary_sha, filepath: `${self}/evidences/${e.id}.json`, collected_at: e.collected_at })) }
      : {}),
    _links: {
      ...(can.downloadCode ? { self } : {}),
      ...(can.updateRelease ? { edit_url: `${self}/edit` } : {}),
    },
  }
}
