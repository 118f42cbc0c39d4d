package dev.runbook.instance.act;

/** A step found that going on would destroy or mix data: the instance stops acting and says why. */
public final class Refused extends RuntimeException {
    public Refused(String message) {
        super(message);
    }
}
