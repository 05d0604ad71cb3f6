/**
 * The one bundle every Ratchet Node process runs (out/nodeProcesses.js): the language server, the
 * run daemon and the CLI share most of their code (the engine, the OpenAI SDK, markdown-it, ajv,
 * yaml), and three bundles carried three copies of it — 4.6 MB of the .vsix's 5.8. Each process's
 * own file (out/server.js, out/runDaemon.js, out/cli.js) is a stub that starts its role from here
 * (./start.ts). A role is imported when it starts, so a process runs only its own modules' top
 * level: the CLI does not set up the MCP SDK unless `ratchet mcp` asks for it.
 */
export const processes = {
  server: () => import('../server/main'),
  runDaemon: () => import('../daemon/main'),
  cli: () => import('../cli/main'),
};

export type ProcessRole = keyof typeof processes;
