/**
 * Project avatars uploaded through `POST /projects` and `PUT /projects/:id` (`avatar`, a multipart
 * file): validated as GitLab's `Avatarable` does (src/rules/avatars.ts), kept in memory, and served
 * back at the URL the project entities' `avatar_url` shows, `<host>/uploads/-/system/project/avatar/:id/:filename`,
 * outside the API, to whoever may read the project (`read_project`; an anonymous browser is sent to
 * sign in, a signed-in one gets the web 404). Source: issue 34 item 1; gitlab (13.12):
 * lib/api/projects.rb (`optional :avatar, type: File`), app/uploaders/avatar_uploader.rb,
 * app/controllers/uploads_controller.rb (`authorize_access!`).
 * @module
 */
import { signInRedirect, webNotFound } from '../../core/errors.js'
import { p, uploadedBytes } from '../../core/params.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { rubyToI } from '../../core/ruby.js'
import { canReadProject } from '../../rules/access.js'
import { avatarFilename, sendAvatar } from '../../rules/avatars.js'
import { storedBytes } from '../../rules/uploads.js'
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** An uploaded project avatar; the bytes are kept in memory, base64 (so the store stays JSON). */
export interface ProjectAvatarRecord extends Row {
  project_id: number
  /** The sanitised file name, as the URL shows it. */
  filename: string
  data: string
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    project_avatars: ProjectAvatarRecord
  }
}

/** The project avatars table and its index. */
export const projectAvatarTables = { project_avatars: table<ProjectAvatarRecord>(['project_id']) }

/** Keeps `file` as the project's avatar, replacing any earlier upload. */
export function storeProjectAvatar(ctx: Ctx<unknown>, projectId: number, file: Blob): void {
  const avatars = ctx.db.tables.project_avatars
  for (const old of avatars.where('project_id', projectId)) avatars.delete(old.id)
  avatars.insert({ project_id: projectId, filename: avatarFilename(file), data: storedBytes(uploadedBytes(file)), created_at: ctx.now })
}

/** The web route serving uploaded project avatars. */
export const projectAvatarWebRoutes: Route[] = [
  route('GET /uploads/-/system/project/avatar/:id/:filename', {
    auth: 'optional',
    params: { id: p.string({ required: true }), filename: p.string({ required: true }) },
    handler(ctx) {
      const ownerId = rubyToI(ctx.params.id)
      const owner = ctx.db.tables.projects.get(ownerId)
      if (!owner) throw webNotFound()
      if (!canReadProject(ctx.db, ctx.currentUser, owner, ctx.today)) throw ctx.currentUser ? webNotFound() : signInRedirect(ctx.baseUrl)
      const avatar = ctx.db.tables.project_avatars.where('project_id', owner.id).find((a) => a.filename === ctx.params.filename)
      if (!avatar) throw webNotFound()
      return sendAvatar(avatar.filename, avatar.data)
    },
  }),
]
