#!/usr/bin/env node
/**
 * Builds the example page into examples/browser/public/ (or `outdir`): index.html as it is,
 * app.js (main.js bundled for the browser by esbuild) and mockServiceWorker.js (written by
 * `msw init`, from the installed msw, so worker and library versions match).
 * Run it from the repository after `npm run build`: `fakelab` resolves to the package's own dist.
 * test/browser/page.test.ts builds the same page with `alias` pointing `fakelab` at src instead.
 */
import { execFileSync } from 'node:child_process'
import { copyFile, mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HERE = dirname(fileURLToPath(import.meta.url))

/**
 * Builds the page.
 * @param {{ outdir?: string, alias?: Record<string, string> }} options `alias`: esbuild's, to bundle
 *   other sources for the `fakelab` imports.
 * @returns {Promise<string>} the directory written.
 */
export async function buildExample({ outdir = join(HERE, 'public'), alias } = {}) {
  await mkdir(outdir, { recursive: true })
  await build({
    entryPoints: [join(HERE, 'main.js')],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias,
    logLevel: 'warning',
  })
  await copyFile(join(HERE, 'index.html'), join(outdir, 'index.html'))
  const msw = dirname(createRequire(import.meta.url).resolve('msw/package.json'))
  execFileSync(process.execPath, [join(msw, 'cli', 'index.js'), 'init', outdir, '--no-save'], { cwd: join(HERE, '..', '..'), stdio: 'ignore' })
  return outdir
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`built ${await buildExample()}`)
