import { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface ProcessMemory {
  pid: number;
  label: string;
  rssMb: number;
  /** Proportional set size: shared pages split between the processes sharing them, so sums stay honest. */
  pssMb: number;
  /** User and system CPU time the process has used so far. */
  cpuSeconds: number;
}

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every common build). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * RSS and CPU time of each root process and its descendants, labelled by what they run. Walks /proc:
 * Linux only, like the rest of the bench.
 */
export function processTreeMemory(roots: Array<{ pid: number; label: string }>): ProcessMemory[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(statFields(readFileSync(`/proc/${entry}/stat`, 'utf8'))[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const rootLabels = new Map(roots.map((root) => [root.pid, root.label]));
  const tree = roots.map((root) => root.pid);
  for (let index = 0; index < tree.length; index += 1) {
    for (const [pid, parent] of parents) if (parent === tree[index]) tree.push(pid);
  }
  return tree.flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const pssKb = Number(
        /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0,
      );
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const [utime, stime] = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))
        .slice(11, 13)
        .map(Number);
      return [
        {
          pid,
          label: rootLabels.get(pid) ?? labelOf(command),
          rssMb: rssKb / 1024,
          pssMb: pssKb / 1024,
          cpuSeconds: (utime! + stime!) / CLOCK_TICKS_PER_SECOND,
        },
      ];
    } catch {
      return [];
    }
  });
}

/** CPU time every core of the machine has spent busy so far (/proc/stat's first line), whoever ran. */
export function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / CLOCK_TICKS_PER_SECOND;
}

/** The fields after the command name, which may itself hold spaces and parentheses. */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function labelOf(command: string[]): string {
  const binary = path.basename(command[0] ?? '');
  const joined = command.join(' ');
  // The dev server and the production server share a label, so the stacks' figures line up.
  if (['temporal', 'temporal-server'].includes(binary) || joined.includes('start-dev')) return 'temporal';
  if (binary === 'temporal-ui-server') return 'temporal-ui';
  if (binary === 'postgres' || binary.startsWith('postgres:')) return 'postgres';
  if (/main\.(local-)?worker/.test(joined)) return 'worker';
  if (/main\.(local-)?api/.test(joined)) return 'API';
  return path.basename(command[command.length - 1] ?? 'pid');
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}
