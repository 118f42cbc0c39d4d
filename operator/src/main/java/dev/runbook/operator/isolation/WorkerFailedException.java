package dev.runbook.operator.isolation;

/**
 * A worker did not answer: it died, it was killed for running past its bound, or it broke the protocol.
 * Whatever it was doing is lost; a new worker takes its place at the next request.
 */
public final class WorkerFailedException extends RuntimeException {
    public WorkerFailedException(String message) {
        super(message);
    }

    public WorkerFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
