package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleSource;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bundle of any number of rules for a replicated store, generated so that benchmarks can vary
 * the rule count. It is modeled on the engine's example bundle: pods become members (a declared
 * type, {@code insertLogical}), accumulates count them, conditions and status follow, per-pod rules
 * label members, and some rules never match the benchmark states.
 *
 * <p>{@value #CORE_RULES} rules are fixed; the rest come from four per-feature families, one rule
 * each per feature {@code fN}, switched on by {@code spec.features.fN} of the primary.
 */
public final class GeneratedBundle {
    /** The rules in members.drl and store.drl; the generated families make up the rest. */
    public static final int CORE_RULES = 15;
    public static final String PACKAGE = "bench";

    private static final String HEADER = """
            package bench

            import dev.runbook.rules.fact.Clock
            import dev.runbook.rules.fact.Params
            import dev.runbook.rules.fact.Primary
            import dev.runbook.rules.fact.Resource
            import dev.runbook.rules.action.Actions
            import function dev.runbook.rules.action.Actions.setStatus
            import function dev.runbook.rules.action.Actions.setCondition
            import function dev.runbook.rules.action.Actions.label
            import function dev.runbook.rules.action.Actions.event
            import function dev.runbook.rules.action.Actions.warning
            import function dev.runbook.rules.action.Actions.applyTemplate
            import function dev.runbook.rules.action.Actions.requeue
            import function dev.runbook.rules.action.Actions.mergePatch

            """;

    private static final String BUNDLE_YAML = """
            name: bench-store
            version: 1.0.0
            description: A generated bundle for the benchmarks.
            primary:
              apiVersion: bench.runbook.dev/v1
              kind: Store
              plural: stores
            secondaries:
              - apiVersion: v1
                kind: Pod
                mapping: labels
                selector:
                  app.kubernetes.io/instance: "{name}"
            reconcilePeriod: 1m
            parameters:
              failoverDelay:
                default: 30s
                type: duration
                description: How long the primary may be not ready before another member takes over.
              configLevel: info
              jobRetention:
                default: 24h
                type: duration
            limits:
              maxFirings: 10000
              maxActions: 500
            """;

    private static final String TEMPLATE = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: @{primary.name}-config
              labels:
                app.kubernetes.io/instance: @{primary.name}
            data:
              image: "@{primary.str("spec.image", "store:1.0")}"
              log-level: @{params.str("configLevel")}
            """;

    private static final String MEMBERS = HEADER + """
            declare Member
                pod : Resource
                ordinal : int
                role : String
                ready : boolean
                position : long
            end

            rule "Each pod of the store is a member"
            when
                $store : Primary()
                $pod : Resource(kind == "Pod", hasLabel("app.kubernetes.io/instance", $store.name))
            then
                String name = $pod.getName();
                int ordinal = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
                insertLogical(new Member($pod, ordinal, $pod.label("role"), $pod.isReady(),
                        $pod.annotationLong("bench.runbook.dev/position", 0)));
            end

            rule "A member without a role is a replica"
            when
                Member(role == null, $pod : pod)
            then
                insertLogical(label($pod, "role", "replica"));
            end

            rule "A member being deleted is reported"
            when
                $store : Primary()
                Member($pod : pod, pod.deleting)
            then
                insertLogical(event($store, "MemberLeaving", $pod.getName() + " is being deleted"));
            end
            """;

    private static final String STORE = HEADER + """
            rule "Count the ready members"
            when
                $store : Primary()
                accumulate(Member(ready); $ready : count())
            then
                insertLogical(setStatus($store, "readyInstances", $ready.intValue()));
            end

            // "$ready >= $wanted", not "$ready.intValue() >= $wanted" as in the example bundle: the
            // executable model types an accumulate result as Object there and cannot compile it.
            rule "Ready when every wanted member is ready"
            when
                $store : Primary($wanted : integer("spec.instances", 1))
                accumulate(Member(ready); $ready : count(); $ready >= $wanted)
            then
                insertLogical(setCondition($store, "Ready", "True", "MembersReady", $ready + " of " + $wanted + " members ready"));
            end

            rule "Not ready while members are missing"
            when
                $store : Primary($wanted : integer("spec.instances", 1))
                accumulate(Member(ready); $ready : count(); $ready < $wanted)
            then
                insertLogical(setCondition($store, "Ready", "False", "MembersNotReady", $ready + " of " + $wanted + " members ready"));
                insertLogical(requeue($store, "10s"));
            end

            rule "Keep the store's configuration"
            when
                $store : Primary()
            then
                insertLogical(applyTemplate("config.yaml"));
            end

            rule "Report the current primary"
            when
                $store : Primary()
                Member(role == "primary", $name : pod.name)
            then
                insertLogical(setStatus($store, "currentPrimary", $name));
            end

            rule "Promote the most advanced ready replica when the primary has failed"
            when
                $store : Primary($current : str("status.currentPrimary", ""))
                $clock : Clock()
                $params : Params()
                Member(pod.name == $current, !ready, pod.secondsSinceTransition("Ready", $clock) >= $params.seconds("failoverDelay"))
                $best : Member(role == "replica", ready)
                not Member(role == "replica", ready, position > $best.position)
                not Member(role == "replica", ready, position == $best.position, ordinal < $best.ordinal)
            then
                insertLogical(setStatus($store, "targetPrimary", $best.getPod().getName()));
                insertLogical(label($best.getPod(), "role", "primary"));
                insertLogical(warning($store, "FailoverStarted", $current + " is not ready; promoting " + $best.getPod().getName()));
            end

            rule "Scale the StatefulSet to the wanted members"
            when
                $store : Primary($wanted : integer("spec.instances", 1))
                $sts : Resource(kind == "StatefulSet", name == $store.name, integer("spec.replicas", 0) != $wanted)
            then
                insertLogical(mergePatch($sts, "spec.replicas", $wanted));
            end

            rule "Warn when the read-write service is missing"
            when
                $store : Primary()
                not Resource(kind == "Service", name == ($store.name + "-rw"))
            then
                insertLogical(warning($store, "ServiceMissing", $store.getName() + "-rw does not exist"));
            end

            rule "Warn about a failed job"
            when
                $store : Primary()
                $job : Resource(kind == "Job", hasLabel("app.kubernetes.io/instance", $store.name), failed)
            then
                insertLogical(warning($store, "JobFailed", $job.getName() + " failed"));
            end

            rule "Count the completed jobs"
            when
                $store : Primary()
                accumulate(Resource(kind == "Job", complete); $done : count())
            then
                insertLogical(setStatus($store, "completedJobs", $done.intValue()));
            end

            rule "Delete completed jobs past their retention"
            when
                $clock : Clock()
                $params : Params()
                $job : Resource(kind == "Job", complete, ageSeconds($clock) > $params.seconds("jobRetention"))
            then
                // Qualified: an imported function named delete is shadowed by DRL's own delete(fact).
                insertLogical(Actions.delete($job));
            end

            rule "Repair configuration drift"
            when
                $store : Primary()
                $params : Params()
                $cm : Resource(kind == "ConfigMap", name == ($store.name + "-config"),
                        str("data.log-level", "") != $params.str("configLevel"))
            then
                insertLogical(applyTemplate("config.yaml"));
            end
            """;

    private GeneratedBundle() {}

    /** The bundle.yaml of every generated bundle. */
    public static String bundleYaml() { return BUNDLE_YAML; }

    /** The whole bundle: bundle.yaml, a template, and exactly {@code rules} rules (at least {@value #CORE_RULES}). */
    public static BundleSource source(int rules) {
        Map<String, String> files = new LinkedHashMap<>(drl(rules));
        files.put("bundle.yaml", BUNDLE_YAML);
        files.put("templates/config.yaml", TEMPLATE);
        return new BundleSource("generated:" + rules, files);
    }

    /**
     * The rule files alone, keyed {@code rules/NAME.drl}: members.drl, store.drl, then the generated
     * families in files of at most 40 rules.
     */
    public static Map<String, String> drl(int rules) {
        if (rules < CORE_RULES) {
            throw new IllegalArgumentException("a generated bundle has at least " + CORE_RULES + " rules");
        }
        Map<String, String> files = new LinkedHashMap<>();
        files.put("rules/members.drl", MEMBERS);
        files.put("rules/store.drl", STORE);
        int generated = rules - CORE_RULES;
        StringBuilder file = new StringBuilder(HEADER);
        int inFile = 0;
        for (int i = 0; i < generated; i++) {
            file.append(familyRule(i)).append('\n');
            if (++inFile == 40 || i == generated - 1) {
                files.put(String.format("rules/features-%02d.drl", files.size() - 1), file.toString());
                file = new StringBuilder(HEADER);
                inFile = 0;
            }
        }
        return files;
    }

    /** The i-th generated rule: four families in turn, for feature f(i/4). */
    static String familyRule(int i) {
        int f = i / 4;
        return switch (i % 4) {
            // Per-pod: label every member while the feature is on (the benchmark states label
            // the members for f0 already, and not for f1, so f1 adds one action per member).
            case 0 -> """
                    rule "Feature f%1$d: label the members"
                    when
                        Primary(bool("spec.features.f%1$d", false))
                        Member($pod : pod, !pod.hasLabel("features.runbook.dev/f%1$d", "on"))
                    then
                        insertLogical(label($pod, "features.runbook.dev/f%1$d", "on"));
                    end
                    """.formatted(f);
            // Accumulate and condition: matches once in every state.
            case 1 -> """
                    rule "Feature f%1$d: condition"
                    when
                        $store : Primary($on : bool("spec.features.f%1$d", false))
                        accumulate(Member(ready, pod.hasLabel("features.runbook.dev/f%1$d", "on")); $n : count())
                    then
                        insertLogical(setCondition($store, "FeatureF%1$d", $on, $on ? "Enabled" : "Disabled",
                                $n + " ready members have f%1$d"));
                    end
                    """.formatted(f);
            // A join on jobs that matches only a failed job of this task (task-1 in the states).
            case 2 -> """
                    rule "Feature f%1$d: failed task"
                    when
                        $store : Primary(bool("spec.features.f%1$d", false))
                        $job : Resource(kind == "Job", hasLabel("bench.runbook.dev/task", "task-%1$d"), failed)
                    then
                        insertLogical(warning($store, "TaskF%1$dFailed", $job.getName() + " failed"));
                        insertLogical(requeue($store, "1m"));
                    end
                    """.formatted(f);
            // Matches only when spec.tier names this feature's tier (tier-2 in the states).
            default -> """
                    rule "Feature f%1$d: tier"
                    when
                        $store : Primary(str("spec.tier", "") == "tier-%1$d")
                        $sts : Resource(kind == "StatefulSet", ready)
                    then
                        insertLogical(setStatus($store, "tier", "tier-%1$d"));
                    end
                    """.formatted(f);
        };
    }
}
