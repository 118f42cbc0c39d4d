package dev.runbook.operator.isolation;

import dev.runbook.engine.bundle.BundleLoader;

import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.containment.RuleContainmentException;
import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.RuleFailedException;
import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.reload.BundleVetting;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a worker does with each request (the worker's side of {@link Frames}): {@link Frames#LOAD}
 * compiles a bundle and, when asked, vets it as the operator would in process ({@link BundleVetting}:
 * its scenarios under the operator's policy); {@link Frames#DECIDE} runs one cycle of the loaded bundle.
 * Every outcome becomes an answer frame: a refusal, a rule that failed or was stopped, the firing limit.
 */
final class WorkerRequests {
    private volatile CompiledBundle bundle;
    private volatile Policy policy;

    Frames.Frame load(long id, byte[] payload) {
        Wire.In in = new Wire.In(payload);
        String origin = in.readText("the bundle's origin");
        Map<String, String> files = files(in.readMap());
        Policy given = PolicyWire.read(in);
        boolean vet = in.readBoolean();
        in.end();
        try {
            // Compiled and vetted as the operator sent the files, in memory: nothing is written to disk.
            BundleFiles bundleFiles = BundleFiles.of(files);
            int scenarios = 0;
            CompiledBundle compiled;
            if (vet) {
                BundleVetting.Vetted vetted = new BundleVetting(given).vet(origin, bundleFiles);
                compiled = (CompiledBundle) vetted.bundle();
                scenarios = vetted.scenarios();
            } else {
                compiled = compile(origin, bundleFiles);
            }
            bundle = compiled;
            policy = given;
            Wire.Out out = new Wire.Out().writeStrings(compiled.ruleNames())
                    .writeStrings(compiled.warnings().stream().map(Problem::toString).toList()).writeInt(scenarios);
            return new Frames.Frame(id, Frames.OK, out.toBytes());
        } catch (BundleRefusedException refusal) {
            return new Frames.Frame(id, Frames.REFUSED, new Wire.Out().writeString(refusal.getMessage())
                    .writeString(refusal.headline()).writeStrings(refusal.details()).toBytes());
        }
    }

    Frames.Frame decide(long id, byte[] payload) {
        CompiledBundle loaded = bundle;
        if (loaded == null) return message(id, Frames.ERROR, "no bundle is loaded in this worker");
        try {
            var decision = loaded.decide(DecisionWire.observation(payload), policy);
            return new Frames.Frame(id, Frames.OK, DecisionWire.decision(decision));
        } catch (RuleContainmentException stopped) {
            return new Frames.Frame(id, Frames.RULE_STOPPED, new Wire.Out().writeString(stopped.rule())
                    .writeString(stopped.template()).writeString(stopped.getMessage()).toBytes());
        } catch (RuleFailedException failed) {
            return new Frames.Frame(id, Frames.RULE_FAILED, new Wire.Out().writeString(failed.rule())
                    .writeString(failed.getMessage()).toBytes());
        } catch (FiringLimitExceededException limit) {
            Wire.Out out = new Wire.Out().writeInt(limit.topRules().size());
            limit.topRules().forEach((rule, count) -> out.writeString(rule).writeInt(count));
            return new Frames.Frame(id, Frames.FIRING_LIMIT, out.toBytes());
        } catch (IllegalArgumentException invalid) {
            return message(id, Frames.INVALID, invalid.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return message(id, Frames.ERROR, e.toString());
        }
    }

    static Frames.Frame message(long id, byte kind, String message) {
        return new Frames.Frame(id, kind, new Wire.Out().writeString(String.valueOf(message)).toBytes());
    }

    private static CompiledBundle compile(String origin, BundleFiles files) {
        try {
            return BundleCompiler.compile(BundleLoader.of(origin, files));
        } catch (InvalidInputException e) {
            throw new BundleRefusedException(origin + ": refused: the bundle does not compile",
                    e.getProblems().stream().map(Problem::toString).toList());
        }
    }

    private static Map<String, String> files(Map<String, Object> given) {
        Map<String, String> files = new LinkedHashMap<>();
        given.forEach((path, text) -> {
            if (!(text instanceof String string)) throw new Wire.WireException("the file " + path + " is not text");
            files.put(path, string);
        });
        return files;
    }
}
