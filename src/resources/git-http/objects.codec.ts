/**
 * Between git's object bodies (what a pack carries) and the repository area's decoded objects:
 * {@link rawOf} for upload-pack, {@link decodeObject} for receive-pack. A decoded object must
 * encode back to the same bytes, so that its id stays git's: what the repository cannot keep (a
 * commit's `gpgsig`, `encoding` or `mergetag` header, a tree entry of an unknown mode) is refused.
 * Source: git Documentation/technical (object format); fsck.c (what a well-formed object is).
 * @module
 */
import { encodeObject, type GitObject, type Signature, type TreeEntry, type TreeMode } from '../repository/repository.public.js'
import { PackError, type RawObject } from './packfile.js'

const text = new TextDecoder('utf-8', { fatal: false })

/** An object's type and body, as a pack carries it (its encoding without the `<type> <size>\0` header). */
export function rawOf(object: GitObject): RawObject {
  if (object.type === 'blob') return { type: 'blob', body: object.data }
  const encoded = encodeObject(object)
  return { type: object.type, body: encoded.subarray(encoded.indexOf(0) + 1) }
}

const MODES = new Set<string>(['100644', '100755', '120000', '40000', '160000'])

/** `Name <email> <seconds> <offset>`. @throws PackError when it is not one. */
function signature(line: string): Signature {
  const match = /^(.*) <([^<>]*)> (\d+) ([+-]\d{4})$/.exec(line)
  if (!match) throw new PackError(`fakelab cannot read the identity ${JSON.stringify(line)}`)
  return { name: match[1]!, email: match[2]!, time: Number(match[3]), offset: match[4]! }
}

/** The header lines and the message of a commit or tag body. */
function headed(body: Uint8Array): { headers: Array<[string, string]>; message: string } {
  const s = text.decode(body)
  const split = s.indexOf('\n\n')
  const head = split === -1 ? s.replace(/\n$/, '') : s.slice(0, split)
  const message = split === -1 ? '' : s.slice(split + 2)
  const headers = head.split('\n').map((line): [string, string] => {
    const space = line.indexOf(' ')
    return space === -1 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)]
  })
  return { headers, message }
}

/**
 * The decoded object of a raw one, checked to encode back to `id`.
 * @throws PackError for a malformed object or one the repository cannot keep as it is.
 */
export function decodeObject(raw: RawObject, id: string): GitObject {
  const object = decode(raw)
  const again = rawOf(object)
  if (again.body.length !== raw.body.length || again.body.some((b, i) => b !== raw.body[i])) {
    throw new PackError(`fakelab cannot keep the ${raw.type} ${id} as it is (extra headers such as gpgsig are not simulated)`)
  }
  return object
}

function decode(raw: RawObject): GitObject {
  switch (raw.type) {
    case 'blob':
      return { type: 'blob', data: raw.body }
    case 'tree': {
      const entries: TreeEntry[] = []
      const body = raw.body
      let at = 0
      while (at < body.length) {
        const space = body.indexOf(0x20, at)
        const nul = body.indexOf(0, space)
        if (space === -1 || nul === -1 || nul + 21 > body.length) throw new PackError('fakelab cannot read a tree (bad entry)')
        const mode = text.decode(body.subarray(at, space))
        if (!MODES.has(mode)) throw new PackError(`fakelab cannot keep a tree entry of mode ${mode}`)
        const name = text.decode(body.subarray(space + 1, nul))
        let id = ''
        for (let i = nul + 1; i < nul + 21; i++) id += body[i]!.toString(16).padStart(2, '0')
        entries.push({ mode: mode as TreeMode, name, id })
        at = nul + 21
      }
      return { type: 'tree', entries }
    }
    case 'commit': {
      const { headers, message } = headed(raw.body)
      let tree: string | undefined
      const parents: string[] = []
      let author: Signature | undefined
      let committer: Signature | undefined
      for (const [key, value] of headers) {
        if (key === 'tree' && tree === undefined) tree = value
        else if (key === 'parent') parents.push(value)
        else if (key === 'author' && !author) author = signature(value)
        else if (key === 'committer' && !committer) committer = signature(value)
        else throw new PackError(`fakelab cannot keep a commit with a ${JSON.stringify(key)} header`)
      }
      if (!tree || !author || !committer) throw new PackError('fakelab cannot read a commit (missing tree, author or committer)')
      return { type: 'commit', tree, parents, author, committer, message }
    }
    case 'tag': {
      const { headers, message } = headed(raw.body)
      const field = (name: string) => headers.find(([key]) => key === name)?.[1]
      const object = field('object')
      const objectType = field('type')
      const tag = field('tag')
      const tagger = field('tagger')
      if (!object || !tag || !tagger || !['commit', 'tree', 'blob', 'tag'].includes(objectType ?? '')) throw new PackError('fakelab cannot read a tag (missing object, type, tag or tagger)')
      return { type: 'tag', object, objectType: objectType as 'commit', tag, tagger: signature(tagger), message }
    }
  }
}
