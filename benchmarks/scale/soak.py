#!/usr/bin/env python3
"""The soak's parts that talk to the API server or read its audit log (benchmarks/scale/soak runs them).

usage: soak.py patch-testenv UP_FILE
       soak.py wait-healthy  --n N --timeout S [--pid PID] [--timeline FILE]
       soak.py trickle       --n N --seconds T --changes FILE [--seed S]
       soak.py converged     --changes FILE --timeout S
       soak.py idle-writes   --audit LOG --user NAME --from EPOCH --to EPOCH --changes FILE

The API server is the one of $RUNBOOK_TESTENV_DIR (its admin certificate, so that the audit log, which
records only the operator's own user, stays the operator's). The clusters are PostgresClusters named
pg-0001 ... in namespace $SOAK_NAMESPACE (default soak)."""
import argparse, datetime, http.client, json, os, random, re, ssl, sys, time

NAMESPACE = os.environ.get("SOAK_NAMESPACE", "soak")
GROUP = "/apis/postgres.runbook.dev/v1alpha1"
WRITES = {"create", "update", "patch", "delete", "deletecollection"}
# Every object a cluster's cycles write is named after the cluster: pg-0001 (the primary, its
# StatefulSet), pg-0001-rw, pg-0001-config, pg-0001-0 (a pod), pg-0001.18a... (an Event).
CLUSTER_OF = re.compile(r"^(pg-\d+)(?:[-.].*)?$")


class Api:
    def __init__(self):
        te = os.environ["RUNBOOK_TESTENV_DIR"]
        port = int(os.environ.get("RUNBOOK_TESTENV_APISERVER_PORT", "16443"))
        ctx = ssl.create_default_context(cafile=f"{te}/certs/ca.crt")
        ctx.load_cert_chain(f"{te}/certs/admin.crt", f"{te}/certs/admin.key")
        self.connect = lambda: http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=60)
        self.conn = self.connect()

    def call(self, method, path, body=None, content_type="application/merge-patch+json"):
        for attempt in range(3):
            try:
                headers = {"Accept": "application/json"}
                if body is not None:
                    headers["Content-Type"] = content_type
                self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
                r = self.conn.getresponse()
                data = r.read()
                if r.status >= 300:
                    raise RuntimeError(f"{method} {path}: {r.status} {data[:300]!r}")
                return json.loads(data)
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = self.connect()
                if attempt == 2:
                    raise

    def clusters(self):
        return self.call("GET", f"{GROUP}/namespaces/{NAMESPACE}/postgresclusters")["items"]

    def pods(self):
        return self.call("GET", f"/api/v1/namespaces/{NAMESPACE}/pods")["items"]


def ready(pod):
    return any(c.get("type") == "Ready" and c.get("status") == "True" for c in pod.get("status", {}).get("conditions", []))


def converged(cluster):
    """Healthy, every instance ready, and the latest spec observed: what the operator reports once a change settled."""
    s, spec, meta = cluster.get("status", {}), cluster["spec"], cluster["metadata"]
    return (s.get("phase") == "Healthy" and s.get("readyInstances") == spec.get("instances")
            and s.get("observedGeneration") == meta.get("generation"))


def rfc3339(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def wait_healthy(a):
    api, t0 = Api(), time.time()
    timeline = open(a.timeline, "a") if a.timeline else None
    while True:
        healthy = sum(1 for c in api.clusters() if c.get("status", {}).get("phase") == "Healthy")
        if timeline:
            print(f"{time.time() - t0:.1f} healthy={healthy} load={os.getloadavg()[0]:.2f}", file=timeline, flush=True)
        if healthy >= a.n:
            print(f"{time.time() - t0:.1f}")
            return 0
        if a.pid and not os.path.exists(f"/proc/{a.pid}"):
            sys.exit(f"soak: the operator (pid {a.pid}) exited")
        if time.time() - t0 > a.timeout:
            sys.exit(f"soak: {healthy} of {a.n} Healthy after {a.timeout} s")
        time.sleep(2 if a.n <= 200 else 5)


def trickle(a):
    """Each second one spec edit (failoverDelay 30s <-> 45s: a new generation the operator must observe) on
    one random cluster and one readiness flip on a pod of another: a pod made not ready, or the pod the
    previous flip made not ready made ready again, so at most one pod is not ready at a time (for a
    second: far below failoverDelay, so no failover starts)."""
    api, rng = Api(), random.Random(a.seed)
    pods = sorted(p["metadata"]["name"] for p in api.pods())
    names = [f"pg-{i:0{len(str(a.n))}d}" for i in range(1, a.n + 1)]
    delays = {c["metadata"]["name"]: c["spec"].get("failoverDelay", "30s") for c in api.clusters()}
    out, unready = open(a.changes, "w"), None
    start = time.time()
    tick = 0
    while time.time() - start < a.seconds:
        edited = rng.choice(names)
        delays[edited] = "45s" if delays[edited] == "30s" else "30s"
        r = api.call("PATCH", f"{GROUP}/namespaces/{NAMESPACE}/postgresclusters/{edited}",
                     {"spec": {"failoverDelay": delays[edited]}})
        print(json.dumps({"t": time.time(), "kind": "spec", "cluster": edited,
                          "generation": r["metadata"]["generation"]}), file=out, flush=True)
        if unready is None:
            pod, flip_to = rng.choice([p for p in pods if not p.startswith(edited + "-")]), "False"
        else:
            pod, flip_to = unready, "True"
        flip(api, pod, flip_to)
        unready = pod if flip_to == "False" else None
        print(json.dumps({"t": time.time(), "kind": "ready", "cluster": CLUSTER_OF.match(pod).group(1), "pod": pod,
                          "ready": flip_to}), file=out, flush=True)
        tick += 1
        time.sleep(max(0.0, start + tick - time.time()))
    if unready is not None:
        flip(api, unready, "True")
        print(json.dumps({"t": time.time(), "kind": "ready", "cluster": CLUSTER_OF.match(unready).group(1),
                          "pod": unready, "ready": "True"}), file=out, flush=True)
    return 0


def flip(api, pod, status):
    now = rfc3339(time.time())
    api.call("PATCH", f"/api/v1/namespaces/{NAMESPACE}/pods/{pod}/status",
             {"status": {"conditions": [{"type": "Ready", "status": status, "lastTransitionTime": now},
                                        {"type": "ContainersReady", "status": status, "lastTransitionTime": now}]}},
             content_type="application/strategic-merge-patch+json")


def read_changes(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def wait_converged(a):
    """Counts the changes whose cluster, after them, reports the state they lead to (converged, with
    observedGeneration at least the edit's generation), waiting at most --timeout for the last ones."""
    api, changes = Api(), read_changes(a.changes)
    deadline = time.time() + a.timeout
    while True:
        clusters = {c["metadata"]["name"]: c for c in api.clusters()}
        done = [ch for ch in changes if converged(clusters[ch["cluster"]])
                and clusters[ch["cluster"]]["status"].get("observedGeneration", 0) >= ch.get("generation", 0)]
        if len(done) == len(changes) or time.time() > deadline:
            print(json.dumps({"changes": len(changes), "converged": len(done),
                              "not_converged": sorted({ch["cluster"] for ch in changes} - {ch["cluster"] for ch in done})}))
            return 0
        time.sleep(5)


def idle_writes(a):
    """The operator's writes, in the window, to objects of clusters that no change touched."""
    changed = {ch["cluster"] for ch in read_changes(a.changes)}
    by_resource, other, total = {}, {}, 0
    with open(a.audit, errors="replace") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("stage") != "ResponseComplete" or e.get("user", {}).get("username") != a.user:
                continue
            if e.get("verb") not in WRITES:
                continue
            t = datetime.datetime.fromisoformat(e["requestReceivedTimestamp"].replace("Z", "+00:00")).timestamp()
            if not a.t0 <= t < a.t1:
                continue
            ref = e.get("objectRef", {})
            m = CLUSTER_OF.match(ref.get("name", ""))
            key = f'{e["verb"]} {ref.get("resource", "?")}' + (f'/{ref["subresource"]}' if ref.get("subresource") else "")
            if m is None or ref.get("namespace") != NAMESPACE:
                other[key] = other.get(key, 0) + 1  # not a cluster's: the presence Lease and the like
            elif m.group(1) not in changed:
                total += 1
                by_resource[key] = by_resource.get(key, 0) + 1
    print(json.dumps({"idle_writes": total, "by_resource": by_resource, "not_a_clusters": other,
                      "clusters_changed": len(changed)}))
    return 0


def patch_testenv(a):
    """testenv/up, changed as the scale benchmark's harness changes it: an audit log of the operator's own
    requests, more client QPS for the controller-manager and the scheduler, a node that takes every pod."""
    s = open(a.up).read()

    def after(anchor, text):
        nonlocal s
        if s.count(anchor) != 1:
            sys.exit(f"soak: testenv/up changed: {anchor!r} found {s.count(anchor)} times")
        s = s.replace(anchor, anchor + text)
    after('  --endpoint-reconciler-type=none \\\n',
          '  --audit-policy-file="$SOAK_AUDIT_POLICY" \\\n  --audit-log-path="$SOAK_AUDIT_LOG" \\\n  --audit-log-maxsize=1000000 \\\n')
    after('  --use-service-account-credentials=false \\\n', '  --kube-api-qps=200 \\\n  --kube-api-burst=400 \\\n')
    after('  --secure-port="$scheduler_port" \\\n', '  --kube-api-qps=200 \\\n  --kube-api-burst=400 \\\n')
    if s.count('pods: "500"') != 2:
        sys.exit("soak: testenv/up changed: the node's capacity")
    s = s.replace('pods: "500"', 'pods: "$SOAK_NODE_PODS"')
    open(a.up, "w").write(s)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("patch-testenv"); p.add_argument("up"); p.set_defaults(run=patch_testenv)
    p = sub.add_parser("wait-healthy"); p.add_argument("--n", type=int, required=True)
    p.add_argument("--timeout", type=float, required=True); p.add_argument("--pid", type=int)
    p.add_argument("--timeline"); p.set_defaults(run=wait_healthy)
    p = sub.add_parser("trickle"); p.add_argument("--n", type=int, required=True)
    p.add_argument("--seconds", type=float, required=True); p.add_argument("--changes", required=True)
    p.add_argument("--seed", type=int, default=31); p.set_defaults(run=trickle)
    p = sub.add_parser("converged"); p.add_argument("--changes", required=True)
    p.add_argument("--timeout", type=float, required=True); p.set_defaults(run=wait_converged)
    p = sub.add_parser("idle-writes"); p.add_argument("--audit", required=True); p.add_argument("--user", required=True)
    p.add_argument("--from", dest="t0", type=float, required=True); p.add_argument("--to", dest="t1", type=float, required=True)
    p.add_argument("--changes", required=True); p.set_defaults(run=idle_writes)
    a = ap.parse_args()
    return a.run(a)


if __name__ == "__main__":
    sys.exit(main())
