#!/bin/sh
# `pnpm start`: build the server when its sources changed (turbo's cache), then run the build in production mode.
set -e
echo 'Building the server (the first start takes a minute or so; later starts reuse the build)...'
turbo run build --filter=@calendar/api --output-logs=errors-only
echo 'Starting the server...'
# A young generation of 1 MB semi-spaces, two malloc arenas that give freed memory back (fixed 128 KiB trim and mmap
# thresholds) and a full collection once the old generation doubles:
# about half the peak RSS for a few % more CPU per list request (docs/performance.md, "Memory (issue 25)");
# apps/api/bench/processes.ts starts the benchmark's servers alike.
NODE_ENV=production MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 MALLOC_MMAP_THRESHOLD_=131072 exec node --max-semi-space-size=1 --heap-growing-percent=100 apps/api/dist/main.mjs
