/**
 * The award emoji area's error messages: `lib/api/award_emoji.rb` answers a failed award with
 * `not_found!("Award Emoji #{errors}")`, so these become part of a 404 resource name.
 * gitlab: lib/api/award_emoji.rb, app/models/award_emoji.rb.
 * @module
 */

/** Messages of the award emoji routes. */
export const AwardEmojiMessage = {
  /** 404 resource: a system note cannot be awarded. */
  notAwardable: 'Award Emoji Awardable cannot be awarded emoji',
  /** 404 resource: the award's `full_messages` as a Ruby array (`"Name can't be blank", …`) in brackets. */
  failed: (inspectedMessages: string) => `Award Emoji [${inspectedMessages}]`,
} as const
