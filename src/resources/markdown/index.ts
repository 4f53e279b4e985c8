/**
 * The Markdown area: `POST /markdown`, GitLab's Markdown and GitLab Flavored Markdown rendering
 * (markdown-it, loaded with the route on first use). gitlab: lib/api/markdown.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The Markdown area. */
export const markdown: Area = {
  name: 'markdown',
  load: async () => {
    const { markdownRoutes } = await import('./markdown.routes.js')
    return { api: markdownRoutes }
  },
}
