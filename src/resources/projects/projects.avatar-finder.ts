/**
 * Registers the projects area's uploaded avatars with the entities' `avatar_url` at start
 * (src/rules/avatars.ts). gitlab: app/models/concerns/avatarable.rb.
 * @module
 */
import { registerAvatarFinder } from '../../rules/avatars.js'

registerAvatarFinder('project', (db, id) => db.tables.project_avatars.where('project_id', id)[0]?.filename)
