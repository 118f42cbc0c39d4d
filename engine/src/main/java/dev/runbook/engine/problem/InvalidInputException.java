package dev.runbook.engine.problem;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a user gave cannot be used: a bundle that does not compile, a bad {@code bundle.yaml}, a
 * state file that is not Kubernetes objects. Carries every problem found, each with its place, so
 * one run reports them all.
 */
public class InvalidInputException extends RuntimeException {
    private final List<Problem> problems;

    public InvalidInputException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) throw new IllegalArgumentException("an invalid input needs at least one problem");
        this.problems = List.copyOf(problems);
    }

    public InvalidInputException(Problem problem) {
        this(List.of(problem));
    }

    public List<Problem> getProblems() { return problems; }
}
