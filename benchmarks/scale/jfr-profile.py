#!/usr/bin/env python3
"""Where a JFR recording's execution samples went: by thread group, by cycle phase (the outermost frame
of a phase), by kind of work (the innermost library frame: Drools, Jackson, TLS...), the top frames and
the operator's own methods, inclusive. The recording is the scale harness's (JFR=1, docs/performance.md).

usage: jfr print --events jdk.ExecutionSample --stack-depth 256 REC.jfr > samples.txt
       benchmarks/scale/jfr-profile.py [--window HH:MM:SS HH:MM:SS] samples.txt
The window (the times jfr prints) keeps the samples of the converging run only."""
import re, sys, collections

def parse(lines, t_from=None, t_to=None):
    sample = None
    in_stack = False
    for line in lines:
        s = line.strip()
        if s.startswith('jdk.ExecutionSample'):
            sample = {'stack': []}
        elif sample is None:
            continue
        elif s.startswith('startTime ='):
            sample['time'] = s.split('=', 1)[1].strip().split(' ')[0]
        elif s.startswith('sampledThread ='):
            m = re.match(r'sampledThread = "(.*)" \(', s)
            sample['thread'] = m.group(1) if m else s
        elif s.startswith('stackTrace = ['):
            in_stack = True
        elif in_stack and s == ']':
            in_stack = False
        elif in_stack:
            if s != '...':
                sample['stack'].append(re.sub(r'\s+line:.*$', '', s))
        elif s == '}':
            if sample.get('stack') is not None:
                yield sample
            sample = None

def thread_group(name):
    for pat, g in [(r'^ReconcilerExecutor|^pool-\d+-thread', 'reconcile threads'),
                   (r'-pool-\d+-thread', 'informer executor'),
                   (r'[Ii]nformer|EventSource|Watch|watch', 'informers/watches'),
                   (r'OkHttp|vert\.x|vertx|HttpClient|jetty|netty', 'HTTP client I/O'),
                   (r'^main$', 'main')]:
        if re.search(pat, name): return g
    return 'other: ' + re.sub(r'[-#]?\d+$', '', name)

PHASES = [  # outermost match wins (searched from the bottom of the stack)
    ('dev.runbook.operator.observe.', 'observe (facts)'),
    ('dev.runbook.engine.decide.', 'decide (engine)'),
    ('dev.runbook.operator.act.', 'act'),
    ('dev.runbook.operator.record.', 'record (status, events)'),
    ('dev.runbook.operator.cycle.', 'cycle (other)'),
    ('dev.runbook.operator.controller.', 'controller (mapping, caches)'),
    ('io.javaoperatorsdk.', 'JOSDK (event handling)'),
    ('io.fabric8.kubernetes.client.informers', 'informers'),
    ('io.fabric8.kubernetes.client.', 'fabric8 client'),
]
KINDS = [  # innermost match wins (searched from the leaf)
    ('org.drools.', 'Drools'), ('org.kie.', 'Drools'), ('org.mvel2.', 'Drools (MVEL)'),
    ('com.fasterxml.jackson.', 'JSON/YAML (Jackson)'), ('org.yaml.snakeyaml', 'YAML (SnakeYAML)'),
    ('dev.runbook.engine.template.', 'templates'), ('com.github.mustachejava', 'templates'),
    ('io.pebbletemplates', 'templates'), ('freemarker.', 'templates'),
    ('sun.security.ssl.', 'TLS'), ('javax.crypto', 'TLS'), ('com.sun.crypto', 'TLS'), ('sun.security.', 'TLS'),
    ('io.vertx.', 'HTTP client'), ('io.netty.', 'HTTP client'), ('okhttp3.', 'HTTP client'), ('okio.', 'HTTP client'),
    ('java.net.http.', 'HTTP client'), ('jdk.internal.net.http.', 'HTTP client'),
    ('io.fabric8.kubernetes.client.http', 'HTTP client'),
    ('ch.qos.logback', 'logging'), ('org.slf4j', 'logging'), ('org.apache.logging', 'logging'),
    ('java.util.zip.', 'compression'), ('java.util.regex.', 'regex'),
    ('io.micrometer.', 'metrics'), ('io.prometheus', 'metrics'),
    ('io.fabric8.kubernetes.client.informers', 'informer caches'),
    ('io.fabric8.', 'fabric8 (other)'), ('io.javaoperatorsdk.', 'JOSDK'),
    ('dev.runbook.', 'runbook code'),
]

def first(stack, table, outermost):
    frames = reversed(stack) if outermost else stack
    for f in frames:
        for prefix, name in table:
            if f.startswith(prefix): return name
    return None

def main():
    args = sys.argv[1:]
    t_from = t_to = None
    if args and args[0] == '--window':
        t_from, t_to = args[1], args[2]; args = args[3:]
    samples = [s for s in parse(open(args[0]) if args else sys.stdin)
               if (t_from is None or s.get('time', '') >= t_from) and (t_to is None or s.get('time', '') <= t_to)]
    total = len(samples)
    print(f'{total} samples' + (f' in {t_from}..{t_to}' if t_from else ''))
    def table(title, counter, k=25):
        print(f'\n== {title}')
        for key, c in counter.most_common(k):
            print(f'{100.0 * c / total:6.1f}%  {c:6d}  {key}')
    table('thread group', collections.Counter(thread_group(s.get('thread', '?')) for s in samples))
    table('phase (outermost frame)', collections.Counter(first(s['stack'], PHASES, True) or 'none: ' + thread_group(s.get('thread', '?')) for s in samples))
    table('kind of work (innermost library frame)', collections.Counter(first(s['stack'], KINDS, False) or ('JDK: ' + '.'.join(s['stack'][0].split('.')[:3]) if s['stack'] else '?') for s in samples))
    ph_kind = collections.Counter((first(s['stack'], PHASES, True) or '-') + ' / ' + (first(s['stack'], KINDS, False) or 'JDK') for s in samples)
    table('phase / kind', ph_kind, 40)
    table('top self frames', collections.Counter(s['stack'][0] if s['stack'] else '?' for s in samples), 40)
    incl = collections.Counter()
    for s in samples:
        seen = set()
        for f in s['stack']:
            m = re.match(r'(.*)\(', f); name = m.group(1) if m else f
            if name.startswith('dev.runbook.') and name not in seen:
                seen.add(name); incl[name] += 1
    table('runbook methods, inclusive', incl, 60)

main()
