package dev.runbook.engine.decide;

/** A rule threw while being evaluated or fired, e.g. it read an undeclared parameter. Names the rule. */
public class RuleFailedException extends RuntimeException {
    private final String rule;

    public RuleFailedException(String rule, Throwable cause) {
        super("rule '" + rule + "' failed: " + rootMessage(cause), cause);
        this.rule = rule;
    }

    /** For subclasses that say more precisely what happened (see engine.containment). */
    protected RuleFailedException(String rule, String message, Throwable cause) {
        super(message, cause);
        this.rule = rule;
    }

    public String rule() { return rule; }

    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
