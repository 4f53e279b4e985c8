/**
 * The releases tables. gitlab: db/structure.sql (`releases`, `release_links`, `milestone_releases`,
 * `release_evidences`; the last two embedded in the release row here).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** One evidence of a release (`Releases::Evidence`): collected when the release is created. */
export interface ReleaseEvidenceSpec {
  /** Evidence id: the `<id>.json` of its file path. */
  id: number
  /** SHA-256 (hex) of the evidence summary (`summary_sha`). */
  summary_sha: string
  collected_at: Timestamp
}

/** A release: a tag of the project's repository with notes, links and milestones. */
export interface ReleaseRecord extends Row {
  project_id: number
  /** The tag's name (`tag`). */
  tag: string
  name: string
  description: string | null
  author_id: number | null
  /** The tagged commit when the release was made; null = the tag's commit, read when presented (scenario releases). */
  sha: string | null
  released_at: Timestamp
  created_at: Timestamp
  updated_at: Timestamp
  /** Milestones (project or group), in association order (`milestone_releases`). */
  milestone_ids: number[]
  evidences: ReleaseEvidenceSpec[]
}

/** An asset link of a release (`Releases::Link`). */
export interface ReleaseLinkRecord extends Row {
  release_id: number
  name: string
  url: string
  /** `/bin/app`-style path of a direct asset link, or null. */
  filepath: string | null
  link_type: 'other' | 'runbook' | 'package' | 'image'
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    releases: ReleaseRecord
    release_links: ReleaseLinkRecord
  }
}

/** The tables and their indexes: releases by project, links by release. */
export const releaseTables = {
  releases: table<ReleaseRecord>(['project_id']),
  release_links: table<ReleaseLinkRecord>(['release_id']),
}
