#!/usr/bin/env python3
"""CPU by thread of the operator (or the baseline) while the scale harness runs: which share the JIT
compilers, the collector, the reconcile threads, the HTTP client's event loop took to converge.

usage: benchmarks/scale/thread-cpu.py watch OUT.tsv &      (beside benchmarks/scale/run, from the project root)
       benchmarks/scale/thread-cpu.py split OUT.tsv PERF_WORK/run-n100-i3-1-runbook ...

`watch` samples /proc once a second: every thread's CPU ticks of each `runbook run` or josdk-baseline
JVM whose working directory is this one. `split` prints, per harness run directory, the last sample
before convergence (the harness writes rv-before.txt SETTLE_S = 15 s after it), grouped."""
import collections, datetime, os, re, sys, time

def watch(out):
    here = os.getcwd()
    with open(out, 'a') as f:
        while True:
            for pid in os.listdir('/proc'):
                if not pid.isdigit(): continue
                try:
                    cmd = open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\0', b' ').decode()
                    if not re.search(r'runbook\.jar run --bundle|josdk-baseline\.jar', cmd) or os.readlink(f'/proc/{pid}/cwd') != here:
                        continue
                    now = time.time()
                    for tid in os.listdir(f'/proc/{pid}/task'):
                        stat = open(f'/proc/{pid}/task/{tid}/stat').read()
                        comm = stat[stat.index('(') + 1:stat.rindex(')')]
                        fields = stat[stat.rindex(')') + 2:].split()
                        f.write(f'{now}\t{pid}\t{comm}\t{int(fields[11]) + int(fields[12])}\n')
                except (FileNotFoundError, ProcessLookupError, ValueError):
                    continue
            f.flush()
            time.sleep(1)

GROUPS = [(r'Compiler', 'JIT compilers'), (r'^(GC|VM Thread|VM Periodic)', 'collector and VM'),
          (r'^pool-\d+-thread|^ReconcilerExec', 'reconcile threads'), (r'vert\.x-eventloo|vertx', 'HTTP client (vert.x)'),
          (r'-pool-\d+-thread', 'informer executor'), (r'^java$', 'main'), (r'^JFR', 'JFR')]

def group(comm):
    return next((name for pattern, name in GROUPS if re.search(pattern, comm)), 'other')

def split(out, runs):
    by_pid = collections.defaultdict(list)
    for line in open(out):
        ts, pid, comm, ticks = line.rstrip('\n').split('\t')
        by_pid[pid].append((float(ts), comm, int(ticks)))
    for run in runs:
        start = os.path.getmtime(os.path.join(run, 'crs.yaml'))
        converged = os.path.getmtime(os.path.join(run, 'rv-before.txt')) - 15
        pids = [p for p, s in by_pid.items() if start - 5 <= min(x[0] for x in s) <= converged]
        if not pids:
            print(f'{os.path.basename(run)}: no samples'); continue
        samples = by_pid[pids[-1]]
        last = max(x[0] for x in samples if x[0] <= converged)
        groups = collections.Counter()
        for ts, comm, ticks in samples:
            if ts == last: groups[group(comm)] += ticks
        total = sum(groups.values())
        print(f'{os.path.basename(run)}: {total / 100:.1f} s at {datetime.datetime.utcfromtimestamp(last):%H:%M:%S} UTC')
        for name, ticks in groups.most_common():
            print(f'  {ticks / 100:6.2f} s {100 * ticks / total:5.1f}%  {name}')

if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'watch': watch(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == 'split': split(sys.argv[2], sys.argv[3:])
    else: sys.exit(__doc__)
