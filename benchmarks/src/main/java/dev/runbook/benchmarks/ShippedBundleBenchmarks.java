package dev.runbook.benchmarks;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.List;

/**
 * Runs {@link ShippedBundleCycleBenchmark} over every sample of every bundle in {@code runbooks/}, so
 * that a new bundle or sample is benchmarked without editing an annotation. JMH's usual options may
 * follow (e.g. {@code -prof gc}, {@code -rf json}); {@code -p sample=...} narrows the samples.
 */
public final class ShippedBundleBenchmarks {
    private ShippedBundleBenchmarks() {}

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions given = new CommandLineOptions(args);
        OptionsBuilder options = new OptionsBuilder();
        options.parent(given).include(ShippedBundleCycleBenchmark.class.getSimpleName());
        if (!given.getParameter("sample").hasValue()) {
            List<String> samples = ShippedSamples.all();
            if (samples.isEmpty()) throw new IllegalStateException("no samples under " + ShippedSamples.runbooks());
            options.param("sample", samples.toArray(String[]::new));
        }
        new Runner(options.build()).run();
    }
}
