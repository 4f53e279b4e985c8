/**
 * The generic package registry's name rules (13.x `Gitlab::Regex::Packages`).
 * @module
 */

/**
 * `generic_package_name_regex` and `generic_package_file_name_regex` (13.x: `maven_file_name_regex`):
 * letters, digits, `.`, `_`, `-` and `+`.
 */
export const GENERIC_NAME = /^[A-Za-z0-9._+-]+$/

/**
 * `generic_package_version_regex` as later GitLab has it (`maven_version_regex`): word characters,
 * `+`, `.` and `-`, without `..`.
 * spec-gap: 13.12's was `\A\d+\.\d+\.\d+\z` (X.Y.Z digits only); python-gitlab 3.12's suite uploads
 * version `v1.0.0`, which that refuses, so fakelab takes the later rule (docs/spec-gaps.md).
 */
export const GENERIC_VERSION = /^(?!.*\.\.)[A-Za-z0-9_+.-]+$/
