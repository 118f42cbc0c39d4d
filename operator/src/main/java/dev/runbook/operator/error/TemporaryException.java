package dev.runbook.operator.error;

/**
 * A cycle stopped on a temporary failure. Thrown to JOSDK, which retries the resource with backoff;
 * the failure is also shown in the {@code RunbookApplied} condition when the API server takes it.
 */
public final class TemporaryException extends RuntimeException {
    private final transient Failure failure;

    public TemporaryException(Failure failure, Throwable cause) {
        super(failure.describe(), cause);
        this.failure = failure;
    }

    public Failure failure() { return failure; }
}
