import { describe, expect, it } from 'vitest';
import { cgroupHierarchies } from '../../../src/node/sandbox/cgroups';

describe('cgroupHierarchies', () => {
  const mountinfo = [
    '30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
    '31 25 0:27 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
    '40 25 0:35 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
  ].join('\n');
  const self = ['8:pids:/user.slice/session-2.scope', '4:memory:/x', '0::/user.slice/session-2.scope'].join('\n');

  it('finds a cgroup v1 hierarchy of the controller, our own cgroup in it first, then v2', () => {
    expect(cgroupHierarchies('pids', mountinfo, self)).toEqual(['/sys/fs/cgroup/pids/user.slice/session-2.scope', '/sys/fs/cgroup/pids', '/sys/fs/cgroup/unified/user.slice/session-2.scope', '/sys/fs/cgroup/unified']);
    expect(cgroupHierarchies('memory', mountinfo, self)).toEqual(['/sys/fs/cgroup/memory/x', '/sys/fs/cgroup/memory', '/sys/fs/cgroup/unified/user.slice/session-2.scope', '/sys/fs/cgroup/unified']);
  });

  it('finds a cgroup v2 hierarchy at the root', () => {
    expect(cgroupHierarchies('pids', '29 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate', '0::/\n')).toEqual(['/sys/fs/cgroup']);
  });

  it('finds nothing without a cgroup mount', () => {
    expect(cgroupHierarchies('memory', '22 1 8:1 / / rw - ext4 /dev/sda1 rw', '0::/\n')).toEqual([]);
  });
});
