package dev.runbook.operator.error;

/** A {@code runbook.dev/...} annotation on a resource has a value the operator does not know. */
public final class InvalidAnnotationException extends RuntimeException {
    public InvalidAnnotationException(String message) {
        super(message);
    }
}
