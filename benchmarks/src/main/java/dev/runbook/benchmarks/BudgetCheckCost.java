package dev.runbook.benchmarks;

import dev.runbook.engine.containment.RuleBudget;

import java.time.Duration;

/**
 * The cost of one budget check, the call the engine inserts at every method entry and backward
 * branch of bundle code: a loop of 100 million checks inside a budget, against the same loop
 * without them. {@code java -cp benchmarks/target/benchmarks.jar dev.runbook.benchmarks.BudgetCheckCost}.
 */
public final class BudgetCheckCost {
    private static final int CHECKS = 100_000_000;
    private static long sink;

    private BudgetCheckCost() {}

    public static void main(String[] args) {
        for (int round = 0; round < 5; round++) {
            long plain = time(false);
            long checked = RuleBudget.within("benchmark", Duration.ofMinutes(5), 1L << 40, () -> time(true));
            System.out.printf("round %d: %.2f ns per iteration without checks, %.2f ns with a check%n",
                    round + 1, plain / (double) CHECKS, checked / (double) CHECKS);
        }
    }

    private static long time(boolean check) {
        long start = System.nanoTime();
        long sum = 0;
        for (int i = 0; i < CHECKS; i++) {
            if (check) RuleBudget.check();
            sum += i ^ (sum >>> 3);
        }
        sink = sum;
        return System.nanoTime() - start;
    }
}
