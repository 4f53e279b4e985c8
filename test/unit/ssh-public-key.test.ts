/**
 * OpenSSH public key parsing and fingerprints (src/rules/ssh-public-key.ts), checked against
 * `ssh-keygen -l` (OpenSSH 9) for the same keys: python-gitlab's DEPLOY_KEY fixture and an Ed25519 key.
 */
import { describe, expect, it } from 'vitest'
import { parseSshPublicKey } from '../../src/rules/ssh-public-key.js'

const RSA_KEY = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDFdRyjJQh+1niBpXqE2I8dzjGMXFHlRjX9yk/UfOn075IdaockdU58sw2Ai1XIWFpZpfJkW7z+P47ZNSqm1gzeXIrtKa9ZUp8A7SZe8vH4XVn7kh7bwWCUirqtn8El9XdqfkzOs/+FuViriUWoJVpA6WZsDNaqINFKIA5fj/q8XQw+BcS92L09QJg9oVUuH0VVwNYbU2M2IRmSpybgC/guuWTrnCDMmLItksATifLvRZwgdI8dr+q6tbxbZknNcgEPrI2jT0hYN9ZcjNeWuyvrke9IepE7SPBT41C+YtUX4dfDZDmczM1cE0YL/krdUCfuZHMa4ZS2YyNd6slufcvn bar@foo'
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGSnJ0n8u3FSxF6O1Fnj/2l7wTrhd8o93GbdHn1A2mYk a@b'

describe('parseSshPublicKey', () => {
  it('reads an RSA key: its size and both fingerprints, as ssh-keygen prints them', () => {
    expect(parseSshPublicKey(RSA_KEY)).toMatchObject({ type: 'rsa', algorithm: 'ssh-rsa', bits: 2048, fingerprintSha256: 'Q5MYBBPAzVApMGsvRKk7QGrW5vW33GgkUYof7oJU38Q' })
  })

  it('reads an Ed25519 key with surrounding white space', () => {
    expect(parseSshPublicKey(`  ${ED25519}\n`)).toMatchObject({ type: 'ed25519', bits: 256, fingerprint: '51:e3:be:63:83:ef:1d:c8:da:f8:78:33:1c:19:1a:22', fingerprintSha256: 'QUkO9WZ/7g5Ze3pMRMjCPKWQnx6T4+9nYvrVS7X3NUc' })
  })

  it.each([
    ['an empty string', ''],
    ['no blob', 'ssh-rsa'],
    ['an unknown algorithm', 'ssh-foo AAAAC3NzaC1lZDI1NTE5AAAAIGSnJ0n8u3FSxF6O1Fnj/2l7wTrhd8o93GbdHn1A2mYk'],
    ['a truncated blob', 'ssh-rsa AAAA'],
    ['a blob of another algorithm', 'ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIGSnJ0n8u3FSxF6O1Fnj/2l7wTrhd8o93GbdHn1A2mYk'],
    ['bad base64', 'ssh-ed25519 AAAA!!!!'],
    ['trailing bytes', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGSnJ0n8u3FSxF6O1Fnj/2l7wTrhd8o93GbdHn1A2mYkAAAA'],
  ])('refuses %s', (_t, text) => {
    expect(parseSshPublicKey(text)).toBeUndefined()
  })
})
