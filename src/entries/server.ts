// out/server.js: the language server (src/server/main.ts), started from the shared Node bundle (nodeProcesses.ts).
import { start } from './start';

start('server');
