#!/usr/bin/env node
// The `ratchet` command: the bundled CLI (npm run build writes out/cli.js).
require('../out/cli.js');
