import { describe, expect, it } from 'vitest';
import { pidsHierarchies } from '../../../src/node/sandbox/sandboxCaps';

describe('pidsHierarchies', () => {
  it('finds a cgroup v1 pids hierarchy, our own cgroup in it first', () => {
    const mountinfo = [
      '30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
      '31 25 0:27 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
      '40 25 0:35 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
    ].join('\n');
    const self = ['8:pids:/user.slice/session-2.scope', '4:memory:/x', '0::/user.slice/session-2.scope'].join('\n');
    expect(pidsHierarchies(mountinfo, self)).toEqual([
      '/sys/fs/cgroup/pids/user.slice/session-2.scope',
      '/sys/fs/cgroup/pids',
      '/sys/fs/cgroup/unified/user.slice/session-2.scope',
      '/sys/fs/cgroup/unified',
    ]);
  });

  it('finds a cgroup v2 hierarchy at the root', () => {
    expect(pidsHierarchies('29 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate', '0::/\n')).toEqual(['/sys/fs/cgroup']);
  });

  it('finds nothing without a cgroup mount', () => {
    expect(pidsHierarchies('22 1 8:1 / / rw - ext4 /dev/sda1 rw', '0::/\n')).toEqual([]);
  });
});
