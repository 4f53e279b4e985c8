/**
 * The runners area's subscriber that deletes a completed pipeline's persistent ref
 * (`refs/pipelines/<id>`, pipelines.refs.ts) when the `pipeline` fact tells of its completion.
 * Loaded by the area's `register`. gitlab (13.12): app/models/ci/pipeline.rb (`after_transition any
 * => completed_statuses` → `persistent_ref.delete`).
 * @module
 */
import { eventCtx, subscribe } from '../../rules/events.js'
import { dropPipelineRef } from './pipelines.refs.js'

subscribe('pipeline', (db, event) => dropPipelineRef(eventCtx(db, event), event.pipeline, event.actorId))
