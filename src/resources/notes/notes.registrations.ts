/**
 * The notes area's registrations in other areas' registries, loaded by its `register` (issue 39
 * item 4) before the first request: award emoji on notes (`…/notes/:note_id/award_emoji`), where
 * the award emoji area finds the note through this hook, as it may not import this area (this one
 * imports it). gitlab: lib/api/award_emoji.rb.
 * @module
 */
import { registerAwardableNotes } from '../award-emoji/award-emoji.public.js'
import { noteOn } from './notes.finder.js'

registerAwardableNotes(noteOn)
