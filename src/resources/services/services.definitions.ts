/**
 * The project services (integrations) GitLab 13.12 CE lets the API set, as data: each one's slug,
 * title, its fields (name, type, required) and the events it takes (`event_names`, each an optional
 * String param of its PUT). The routes, the validation and the entity all read this one table; no
 * service has code of its own.
 * Source: gitlab: lib/api/helpers/services_helpers.rb (13.12, `services`, `chat_notification_*`),
 * lib/api/services.rb (the event params), app/models/project_services/*_service.rb (`title`,
 * `supported_events`, data-field services).
 * @module
 */

/** A field's Grape type: `String`, `Boolean` or `Integer`. */
export type ServiceFieldType = 'string' | 'boolean' | 'integer'

/** One field of a service's PUT: required (`requires`) or optional. */
export interface ServiceField {
  readonly name: string
  readonly type: ServiceFieldType
  readonly required: boolean
}

/** One service: its slug (the URL's), title, fields in declaration order and supported events. */
export interface ServiceDefinition {
  readonly slug: string
  readonly title: string
  readonly fields: readonly ServiceField[]
  /** `supported_events` as `event_names` (`push_events`, `issues_events`, ...): optional String params. */
  readonly events: readonly string[]
  /**
   * The service keeps its fields in a data-fields table (`jira_tracker_data`, `issue_tracker_data`),
   * so `properties` shows every field (null when unset); the others show only the fields set.
   */
  readonly dataFields?: boolean
}

const req = (name: string, type: ServiceFieldType = 'string'): ServiceField => ({ name, type, required: true })
const opt = (name: string, type: ServiceFieldType = 'string'): ServiceField => ({ name, type, required: false })

/** `chat_notification_settings`. */
const CHAT_SETTINGS = [req('webhook'), opt('username'), opt('channel'), opt('branches_to_be_notified')]
/** `chat_notification_flags`. */
const CHAT_FLAGS = [opt('notify_only_broken_pipelines', 'boolean')]
/** `chat_notification_channels`. */
const CHAT_CHANNELS = ['push', 'issue', 'confidential_issue', 'merge_request', 'note', 'tag_push', 'pipeline', 'wiki_page'].map((e) => opt(`${e}_channel`))
/** `chat_notification_events`. */
const CHAT_EVENTS = [
  'push_events', 'issues_events', 'confidential_issues_events', 'merge_requests_events', 'note_events', 'confidential_note_events',
  'tag_push_events', 'pipeline_events', 'wiki_page_events',
].map((e) => opt(e, 'boolean'))

/** `ChatNotificationService.supported_events` as event names. */
const CHAT_EVENT_NAMES = CHAT_EVENTS.map((f) => f.name)
const PUSH = ['push_events']
const TRACKER = [req('new_issue_url'), req('issues_url'), req('project_url')]

/** Every service of 13.12 CE's API, in `services_helpers.rb`'s order. */
export const SERVICES: readonly ServiceDefinition[] = [
  { slug: 'asana', title: 'Asana', fields: [req('api_key'), opt('restrict_to_branch')], events: PUSH },
  { slug: 'assembla', title: 'Assembla', fields: [req('token'), opt('subdomain')], events: PUSH },
  { slug: 'bamboo', title: 'Atlassian Bamboo CI', fields: [req('bamboo_url'), req('build_key'), req('username'), req('password')], events: PUSH },
  { slug: 'bugzilla', title: 'Bugzilla', fields: [req('new_issue_url'), req('issues_url'), req('project_url')], events: PUSH, dataFields: true },
  { slug: 'buildkite', title: 'Buildkite', fields: [req('token'), req('project_url'), opt('enable_ssl_verification', 'boolean')], events: ['push_events', 'merge_requests_events', 'tag_push_events'] },
  { slug: 'campfire', title: 'Campfire', fields: [req('token'), opt('subdomain'), opt('room')], events: PUSH },
  { slug: 'confluence', title: 'Confluence Workspace', fields: [req('confluence_url')], events: [] },
  { slug: 'custom-issue-tracker', title: 'Custom Issue Tracker', fields: TRACKER, events: PUSH, dataFields: true },
  { slug: 'datadog', title: 'Datadog', fields: [req('api_key'), opt('datadog_site'), opt('api_url'), opt('datadog_service'), opt('datadog_env')], events: ['pipeline_events', 'job_events'] },
  { slug: 'discord', title: 'Discord Notifications', fields: [req('webhook')], events: CHAT_EVENT_NAMES },
  { slug: 'drone-ci', title: 'Drone CI', fields: [req('token'), req('drone_url'), opt('enable_ssl_verification', 'boolean')], events: ['push_events', 'merge_requests_events', 'tag_push_events'] },
  { slug: 'emails-on-push', title: 'Emails on push', fields: [req('recipients'), opt('disable_diffs', 'boolean'), opt('send_from_committer_email', 'boolean'), opt('branches_to_be_notified')], events: ['push_events', 'tag_push_events'] },
  { slug: 'external-wiki', title: 'External wiki', fields: [req('external_wiki_url')], events: [] },
  { slug: 'flowdock', title: 'Flowdock', fields: [req('token')], events: PUSH },
  { slug: 'hangouts-chat', title: 'Hangouts Chat', fields: [req('webhook'), opt('branches_to_be_notified'), ...CHAT_EVENTS], events: CHAT_EVENT_NAMES },
  { slug: 'irker', title: 'Irker (IRC gateway)', fields: [req('recipients'), opt('default_irc_uri'), opt('server_host'), opt('server_port', 'integer'), opt('colorize_messages', 'boolean')], events: PUSH },
  { slug: 'jenkins', title: 'Jenkins CI', fields: [req('jenkins_url'), req('project_name'), opt('username'), opt('password')], events: ['push_events', 'merge_requests_events', 'tag_push_events'] },
  {
    slug: 'jira', title: 'Jira', dataFields: true,
    fields: [req('url'), opt('api_url'), req('username'), req('password'), opt('jira_issue_transition_automatic', 'boolean'), opt('jira_issue_transition_id'), opt('comment_on_event_enabled', 'boolean')],
    events: ['commit_events', 'merge_requests_events'],
  },
  { slug: 'mattermost-slash-commands', title: 'Mattermost slash commands', fields: [req('token')], events: [] },
  { slug: 'slack-slash-commands', title: 'Slack slash commands', fields: [req('token')], events: [] },
  { slug: 'packagist', title: 'Packagist', fields: [req('username'), req('token'), opt('server')], events: ['push_events', 'merge_requests_events', 'tag_push_events'] },
  { slug: 'pipelines-email', title: 'Pipelines emails', fields: [req('recipients'), opt('notify_only_broken_pipelines', 'boolean'), opt('branches_to_be_notified')], events: ['pipeline_events'] },
  { slug: 'pivotaltracker', title: 'PivotalTracker', fields: [req('token'), opt('restrict_to_branch')], events: PUSH },
  { slug: 'prometheus', title: 'Prometheus', fields: [req('api_url'), req('google_iap_audience_client_id'), req('google_iap_service_account_json')], events: [] },
  { slug: 'pushover', title: 'Pushover', fields: [req('api_key'), req('user_key'), req('priority'), req('device'), req('sound')], events: PUSH },
  { slug: 'redmine', title: 'Redmine', fields: [req('new_issue_url'), req('project_url'), req('issues_url')], events: PUSH, dataFields: true },
  { slug: 'ewm', title: 'EWM', fields: [req('new_issue_url'), req('project_url'), req('issues_url')], events: PUSH, dataFields: true },
  { slug: 'youtrack', title: 'YouTrack', fields: [req('project_url'), req('issues_url')], events: PUSH, dataFields: true },
  { slug: 'slack', title: 'Slack notifications', fields: [...CHAT_SETTINGS, ...CHAT_FLAGS, ...CHAT_CHANNELS, ...CHAT_EVENTS], events: CHAT_EVENT_NAMES },
  { slug: 'microsoft-teams', title: 'Microsoft Teams Notification', fields: [req('webhook'), opt('branches_to_be_notified'), ...CHAT_FLAGS], events: CHAT_EVENT_NAMES },
  { slug: 'mattermost', title: 'Mattermost notifications', fields: [...CHAT_SETTINGS, ...CHAT_FLAGS, ...CHAT_CHANNELS, ...CHAT_EVENTS], events: CHAT_EVENT_NAMES },
  { slug: 'teamcity', title: 'JetBrains TeamCity CI', fields: [req('teamcity_url'), req('build_type'), req('username'), req('password')], events: ['push_events', 'merge_requests_events'] },
  { slug: 'unify-circuit', title: 'Unify Circuit', fields: [req('webhook'), ...CHAT_EVENTS], events: CHAT_EVENT_NAMES },
  { slug: 'webex-teams', title: 'Webex Teams', fields: [req('webhook'), ...CHAT_EVENTS], events: CHAT_EVENT_NAMES },
]

/** The definitions by slug. */
export const SERVICE_BY_SLUG: ReadonlyMap<string, ServiceDefinition> = new Map(SERVICES.map((s) => [s.slug, s]))

/** The slugs, in order (`INTEGRATIONS.keys`, the `values:` of `:slug`). */
export const SERVICE_SLUGS: readonly string[] = SERVICES.map((s) => s.slug)

/**
 * The event flags a service row keeps (`services` columns) and `ProjectServiceBasic` shows, with
 * their column defaults. gitlab: db/structure.sql `services` (13.12).
 */
export const SERVICE_EVENT_FLAGS = {
  commit_events: true,
  push_events: true,
  issues_events: true,
  confidential_issues_events: true,
  merge_requests_events: true,
  tag_push_events: true,
  note_events: true,
  confidential_note_events: true,
  pipeline_events: false,
  wiki_page_events: true,
  job_events: false,
  comment_on_event_enabled: true,
} as const

/** One of {@link SERVICE_EVENT_FLAGS}. */
export type ServiceEventFlag = keyof typeof SERVICE_EVENT_FLAGS

/**
 * `api_field_names`: the fields `properties` shows, those whose name holds none of `password`,
 * `token`, `key`, `title`, `description` (secrets are never shown). gitlab: app/models/service.rb.
 */
export function apiFieldNames(service: ServiceDefinition): string[] {
  return service.fields.map((f) => f.name).filter((name) => !/(password|token|key|title|description)/.test(name))
}
