/**
 * The project topics API: list (search, `without_projects`), get, and the administrator's create,
 * update, delete and merge. GitLab added it in 14.5 (merge in 15.4), after the 13.12 fakelab
 * simulates; fakelab serves it because python-gitlab 3.12's functional suite reads it first thing
 * (its conftest's `reset_gitlab` lists topics) and `test_topics.py` exercises it (docs/spec-gaps.md).
 * 13.12 projects keep `tag_list`, not topics, and fakelab keeps no project's topics, so every
 * topic's `total_projects_count` is 0 and `without_projects` keeps them all.
 * gitlab: lib/api/topics.rb, app/models/projects/topic.rb, app/finders/projects/topics_finder.rb,
 * app/services/topics/merge_service.rb, lib/api/entities/projects/topic.rb.
 * @module
 */
import { apiMessage, notFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { TopicRecord } from './topics.tables.js'

/** `Entities::Projects::Topic`, in its field order. */
export function Topic(topic: TopicRecord) {
  return { id: topic.id, name: topic.name, title: topic.title, description: topic.description, total_projects_count: 0, avatar_url: null }
}

/** `find_topic!`: the topic, or 404 `{"message":"404 Topic Not Found"}` (`Projects::Topic.find` raises RecordNotFound). */
function findTopic(db: Db, id: number): TopicRecord {
  const topic = db.tables.topics.get(id)
  if (!topic) throw notFound('Topic')
  return topic
}

/**
 * `Projects::Topic`'s validations: `name` present, unique case-insensitively and at most 255
 * characters; a `title` given present and at most 255 (15.0; fakelab takes the name when none is
 * given, as 14.x had no title); `description` at most 1024.
 * @throws ApiError 400 `{"message":{"name":["has already been taken"]}}` and the like.
 */
function checkTopic(db: Db, topic: Omit<TopicRecord, 'id'>, id?: number): void {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  if (topic.name.trim() === '') add('name', "can't be blank")
  else if (topic.name.length > 255) add('name', 'is too long (maximum is 255 characters)')
  else if (db.tables.topics.all().some((other) => other.id !== id && other.name.toLowerCase() === topic.name.toLowerCase())) add('name', 'has already been taken')
  if (topic.title !== topic.name) {
    if (topic.title.trim() === '') add('title', "can't be blank")
    else if (topic.title.length > 255) add('title', 'is too long (maximum is 255 characters)')
  }
  if ((topic.description?.length ?? 0) > 1024) add('description', 'is too long (maximum is 1024 characters)')
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

const topicId = { id: p.integer({ required: true }) }

/** The topic routes (`/topics`). */
export const topicRoutes: Route[] = [
  route('GET /topics', {
    auth: 'optional',
    params: { search: p.string(), without_projects: p.boolean(), ...paginationParams },
    handler(ctx) {
      const search = ctx.params.search?.toLowerCase()
      // TopicsFinder: by total_projects_count descending, then id; every count is 0 here.
      const topics = ctx.db.tables.topics.all().filter((topic) => search === undefined || topic.name.toLowerCase().includes(search) || topic.title.toLowerCase().includes(search))
      return paginated(ctx, topics.sort((a, b) => a.id - b.id), Topic)
    },
  }),

  route('GET /topics/:id', {
    auth: 'optional',
    params: topicId,
    handler(ctx) {
      return ok(Topic(findTopic(ctx.db, ctx.params.id)))
    },
  }),

  route('POST /topics', {
    auth: 'admin',
    params: { name: p.string({ required: true }), title: p.string(), description: p.string() },
    handler(ctx) {
      const topic = { name: ctx.params.name, title: ctx.params.title ?? ctx.params.name, description: ctx.params.description ?? null }
      checkTopic(ctx.db, topic)
      // `present topic` after `topic.save`: Grape's POST default, 201.
      return created(Topic(ctx.db.tables.topics.insert(topic)))
    },
  }),

  route('PUT /topics/:id', {
    auth: 'admin',
    params: { ...topicId, name: p.string(), title: p.string(), description: p.string() },
    handler(ctx) {
      const topic = findTopic(ctx.db, ctx.params.id)
      const next = { name: ctx.params.name ?? topic.name, title: ctx.params.title ?? topic.title, description: ctx.params.description ?? topic.description }
      checkTopic(ctx.db, next, topic.id)
      return ok(Topic(ctx.db.tables.topics.update(topic.id, next)))
    },
  }),

  route('DELETE /topics/:id', {
    auth: 'admin',
    params: topicId,
    handler(ctx) {
      const topic = findTopic(ctx.db, ctx.params.id)
      ctx.db.tables.topics.delete(topic.id)
      return noContent()
    },
  }),

  route('POST /topics/merge', {
    auth: 'admin',
    params: { source_topic_id: p.integer({ required: true }), target_topic_id: p.integer({ required: true }) },
    handler(ctx) {
      const source = findTopic(ctx.db, ctx.params.source_topic_id)
      const target = findTopic(ctx.db, ctx.params.target_topic_id)
      // Topics::MergeService#validate_parameters; then the source's projects move and it goes.
      if (source.id === target.id) throw apiMessage(400, 'The source topic and the target topic are identical.')
      ctx.db.tables.topics.delete(source.id)
      return created(Topic(target))
    },
  }),
]
