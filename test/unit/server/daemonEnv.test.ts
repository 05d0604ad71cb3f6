// The run daemon's environment is an allow-list of the server's, never a copy: a key set in the
// editor's environment stays there (the run's keys travel in its request).
import { describe, expect, it } from 'vitest';
import { daemonEnv } from '../../../src/server/runDaemonLink';
import { evaluatorEnv, userProgramEnv } from '../../../src/node/sandbox/sandboxEnv';

describe('daemonEnv', () => {
  it('keeps where programs, files and proxies are, and drops keys and everything else', () => {
    const env = { PATH: '/bin', Path: 'C:\\bin', HOME: '/home/u', https_proxy: 'http://proxy:3128', NODE_EXTRA_CA_CERTS: '/ca.pem', OPENAI_API_KEY: 'sk-x', JUDGE_KEY: 'k', NODE_OPTIONS: '--inspect', VSCODE_IPC_HOOK: '/s', GONE: undefined };
    expect(daemonEnv(env)).toEqual({ PATH: '/bin', Path: 'C:\\bin', HOME: '/home/u', https_proxy: 'http://proxy:3128', NODE_EXTRA_CA_CERTS: '/ca.pem' });
  });

  it('keeps the compile cache the server was started with (the daemon loads the same bundle); what the daemon runs does not get it', () => {
    const env = { PATH: '/bin', NODE_COMPILE_CACHE: '/home/u/.config/Code/User/globalStorage/ratchet/node-compile-cache' };
    expect(daemonEnv(env)).toEqual(env);
    expect(userProgramEnv(daemonEnv(env), [], {})).toEqual({ PATH: '/bin' });
    expect(evaluatorEnv(daemonEnv(env), [], [], { work: '/w', home: '/h', tmp: '/t', program: '/w/p.mjs', instancesFile: undefined, isolation: 'namespaces', mark: 'm' })).not.toHaveProperty('NODE_COMPILE_CACHE');
  });
});
