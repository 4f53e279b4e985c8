#!/bin/sh
# Builds and serves the browser example; run it from the repository root, then open the URL it prints.
set -e
npm run build                    # fakelab itself, into dist/ (the page imports the package by name)
node examples/browser/build.mjs  # the page, into examples/browser/public/
node examples/browser/serve.mjs  # http://localhost:5173 (PORT=8080 to change it)
