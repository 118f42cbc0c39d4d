package dev.runbook.operator.command;

import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.RuleFailedException;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.io.PrintWriter;
import java.util.function.IntSupplier;

/**
 * Maps what can go wrong in a command to a message and an exit code, in one place. Bad input of any
 * kind exits 2 with one line per problem, {@code file:line:col: message}; nothing else is printed.
 */
public final class Failures {
    private Failures() {}

    public static int guard(PrintWriter err, IntSupplier command) {
        try {
            return command.getAsInt();
        } catch (InvalidInputException e) {
            for (Problem problem : e.getProblems()) err.println(problem);
        } catch (FiringLimitExceededException | RuleFailedException e) {
            err.println("runbook: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            err.println("runbook: " + e.getMessage());
        }
        return ExitCodes.BAD_INPUT;
    }
}
