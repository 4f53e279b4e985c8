/**
 * What other areas may use of the repository area (its public module: besides `index.ts`, the only
 * file of this folder another area imports): the project's repository as built, the readers over
 * it (revisions, merge bases, tree diffs), who may push and merge to a branch (protected branches),
 * and the write primitive a merge request's merge builds on (stage objects, one commit of file
 * actions or of a given tree, move refs, save inside the request's store transaction), and the
 * `Commit` and `Diff` entities a merge request's `commits` and `changes` present.
 * Source: issue 26 items 2, 3 and 5.
 * @module
 */
export { repositoryOf } from './repository.build.js'
export type { Repository } from './repository.build.js'
export type { ObjectId } from './git-objects.js'
export { ancestors, commitOf, diffTrees, log, mergeBase, resolveCommit } from './repository.service.js'
export type { FileDiff } from './repository.service.js'
export { canMergeToBranch, canPushToBranch, isProtectedBranch } from './repository.protection.js'
export { Commit, Diff } from './repository.entities.js'
export type { FlatEntry } from './repository.build.js'
export { ActionError, commitActions, flatFiles, RepositoryWrite, signatureAt } from './repository.write.js'
export type { CommitAction } from './repository.write.js'
