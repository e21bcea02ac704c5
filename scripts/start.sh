#!/bin/sh
# `pnpm start`: build the server when its sources changed (turbo's cache), then run the build in production mode.
set -e
echo 'Building the server (the first start takes a minute or so; later starts reuse the build)...'
turbo run build --filter=@calendar/api --output-logs=errors-only
echo 'Starting the server...'
NODE_ENV=production exec node apps/api/dist/main.mjs
