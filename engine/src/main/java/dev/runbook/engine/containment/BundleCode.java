package dev.runbook.engine.containment;

/** Tells a bundle's compiled code apart from the JDK's, Drools' and the engine's in a stack trace. */
final class BundleCode {
    private static final String[] PLATFORM = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "org.drools.",
            "org.kie.", "org.mvel2.", "dev.runbook.", "org.junit.", "org.assertj.", "org.apache.maven."};

    private BundleCode() {}

    static boolean isBundleFrame(StackTraceElement frame) {
        for (String prefix : PLATFORM) {
            if (frame.getClassName().startsWith(prefix)) return false;
        }
        return true;
    }

    /** {@code function spin} for a DRL function, else the generated class and method. */
    static String describe(StackTraceElement frame) {
        String simple = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1);
        if (!simple.startsWith("Rule_") && !simple.contains("$")) return "function " + frame.getMethodName();
        return simple + "." + frame.getMethodName();
    }
}
