/**
 * The members area's cassette import: members seen in member lists, and the caller's own access
 * that the `permissions` of a project answer show, become `members:` of the scenario's projects
 * and groups (first sight of a user in a source wins).
 * @module
 */
import { isObject, list, num, str, type AreaImporter, type ImportCollectContext, type Json } from '../../scenario/importer.js'

/** The members area's importer (last: its sections refer to nothing else). */
export const memberImporter: AreaImporter = {
  rank: 60,
  counts: ['members'],
  start() {
    /** `project:<id>` / `group:<id>` → username → member */
    const members = new Map<string, Map<string, Json>>()
    const noteMember = (source: string, username: string, level: number, expires: unknown): void => {
      const known = members.get(source) ?? new Map<string, Json>()
      if (!known.has(username)) known.set(username, { user: username, access_level: level, ...(typeof expires === 'string' || expires === null ? { expires_at: expires } : {}) })
      members.set(source, known)
    }
    /** The `permissions` of a project answer tell the caller's own project and group access. */
    const notePermissions = (ctx: ImportCollectContext, project: unknown): void => {
      if (!isObject(project) || ctx.userId === undefined || !isObject(project.permissions)) return
      const username = ctx.username(ctx.userId)
      if (!username) return
      const projectAccess = project.permissions.project_access
      const groupAccess = project.permissions.group_access
      if (isObject(projectAccess) && num(projectAccess.access_level) !== undefined && projectAccess.access_level !== 50) {
        noteMember(`project:${project.id as number}`, username, projectAccess.access_level as number, undefined)
      }
      const namespace = isObject(project.namespace) ? project.namespace : undefined
      if (isObject(groupAccess) && num(groupAccess.access_level) !== undefined && namespace?.kind === 'group' && num(namespace.id) !== undefined) {
        noteMember(`group:${namespace.id as number}`, username, groupAccess.access_level as number, undefined)
      }
    }
    return {
      collect(x, ctx) {
        const t = x.template
        const { group, project } = ctx
        if (t === '/projects' || t === '/projects/:id' || t === '/groups/:id') {
          const projects = t === '/groups/:id' ? (isObject(x.body) && Array.isArray(x.body.projects) ? x.body.projects : []) : list(x.body)
          for (const p of projects) notePermissions(ctx, p)
          return true
        }
        if (!((t === '/projects/:id/members' || t === '/groups/:id/members') && (project ?? group))) return false
        const source = project ? `project:${project.id as number}` : `group:${group!.id as number}`
        for (const member of list(x.body)) {
          ctx.noteUser(member)
          if (isObject(member) && str(member.username) && num(member.access_level) !== undefined) {
            noteMember(source, member.username as string, member.access_level as number, member.expires_at)
          }
        }
        return true
      },
      build(ctx) {
        for (const [source, sourceMembers] of members) {
          const [kind, id] = source.split(':') as ['project' | 'group', string]
          const owner = kind === 'project' ? ctx.project(Number(id)) : ctx.group(ctx.groupPath(Number(id)) ?? '')
          for (const member of sourceMembers.values()) if (ctx.push(owner, 'members', member)) ctx.count('members')
        }
      },
    }
  },
}
