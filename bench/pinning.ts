/**
 * Cores for an A/B figure on a shared 2-core machine (BENCH_PIN, on by default where there are two cores or more
 * and `taskset`): the servers being compared on the last core, the load (this process, autocannon in it) on the
 * others. Left to the scheduler, two identical gateways (an A/A run of bench/observability.ts) came out 0.81 to 1.25
 * of each other in three rounds, and their CPU per request 40 to 58 µs: the load and a server shared a core in
 * some slices and not in others, and which server a round favoured stayed so for the round. Pinned, the same A/A
 * run gave 0.93 to 1.02. BENCH_PIN=0 leaves every process to the scheduler.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const cores = availableParallelism();
export const PINNED = process.env.BENCH_PIN !== '0' && cores >= 2 && spawnSync('taskset', ['-V']).status === 0;
const SERVER_CORE = String(cores - 1);
const ALL_CORES = `0-${cores - 1}`;
const LOAD_CORES = cores === 2 ? '0' : `0-${cores - 2}`;

/** Whether withLoadPinned is running: only then do the servers started go on a core of their own. */
let loadPinned = false;

/**
 * How to start `node ...args` as a compared server: on the servers' core while the load is pinned
 * (withLoadPinned), else where the scheduler puts it. Only bench/observability.ts pins, where both sides are
 * gateways. The write path's figures (bench/write-baseline.ts) were measured pinned on 2026-12-01 and are not: with
 * PostgreSQL left to the scheduler, the gateway on one core made 0.52–0.66 of raw pg where it makes 0.77–0.79 on
 * two, and on SQLite the decisions' ratio fell from 0.61 to 0.50 while the orders' moved from 0.34 to 0.36.
 */
export function serverCommand(args: string[]): { command: string; args: string[] } {
  return loadPinned ? { command: 'taskset', args: ['-c', SERVER_CORE, process.execPath, ...args] } : { command: process.execPath, args };
}

/**
 * Runs `work` with this process and all its threads on the load's cores, and gives them every core back after:
 * children inherit the mask, and the figures after this one start servers of their own.
 */
export async function withLoadPinned<T>(work: () => Promise<T>): Promise<T> {
  if (!PINNED || loadPinned) return work();
  execFileSync('taskset', ['-a', '-p', '-c', LOAD_CORES, String(process.pid)], { stdio: 'ignore' });
  loadPinned = true;
  try {
    return await work();
  } finally {
    loadPinned = false;
    execFileSync('taskset', ['-a', '-p', '-c', ALL_CORES, String(process.pid)], { stdio: 'ignore' });
  }
}

/** CPU seconds (user and system) process `pid` has used so far, from /proc (Linux); null elsewhere. */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}
