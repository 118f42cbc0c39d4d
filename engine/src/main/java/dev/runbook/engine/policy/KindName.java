package dev.runbook.engine.policy;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kind as the policy names it. Group-qualified, as RBAC and {@code kubectl} write it:
 * {@code jobs.batch}, {@code deployments.apps}, {@code postgresclusters.postgres.runbook.dev}, and a
 * core kind without a group: {@code pods}, {@code configmaps}; the kind's own name works as well as
 * the plural ({@code Job.batch}). The plain form {@code Job} is still read, and means that kind in
 * any API group.
 *
 * @param name  a kind ({@code Job}) or a resource name ({@code jobs}, as written)
 * @param group the API group ({@code ""} for the core group); null for any group (the plain form)
 * @param text  as written, for messages
 */
public record KindName(String name, String group, String text) {
    private static final Pattern PLAIN = Pattern.compile("[A-Z][A-Za-z0-9]*");
    private static final Pattern QUALIFIED = Pattern.compile("([A-Za-z][A-Za-z0-9]*)((?:\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");

    /** @throws IllegalArgumentException saying what a kind looks like */
    public static KindName parse(String text) {
        if (PLAIN.matcher(text).matches()) return new KindName(text, null, text);
        Matcher m = QUALIFIED.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a kind: write it group-qualified, as RBAC does, "
                    + "e.g. jobs.batch, deployments.apps, or pods for the core group");
        }
        return new KindName(m.group(1), m.group(2).isEmpty() ? "" : m.group(2).substring(1), text);
    }

    /** The declared kind {@code kind} of API group {@code group}, written {@code Kind.group} ({@code Kind} for the core group). */
    public static KindName of(String kind, String group) {
        return new KindName(kind, group, group.isEmpty() ? kind : kind + "." + group);
    }

    /** The group of an apiVersion: {@code batch} of {@code batch/v1}, {@code ""} of {@code v1}. */
    public static String groupOf(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** Whether an object of {@code kind} and {@code apiVersion} is one this names. */
    public boolean matches(String apiVersion, String kind) {
        return matches(groupOf(apiVersion), kind, kind.toLowerCase(Locale.ROOT));
    }

    /**
     * {@link #matches(String, String)} with the object's group ({@link #groupOf}) and its kind in lower
     * case given: the plan check asks every name of the policy about every action of every cycle, and
     * these are the same for all names.
     */
    boolean matches(String objectGroup, String kind, String lowerKind) {
        if (group != null && !group.equals(objectGroup)) return false;
        if (name.equals(kind)) return true;
        if (!Character.isLowerCase(name.charAt(0))) return false;
        // A resource name: the kind in lower case, or its plural by the API's rules (jobs, classes, policies).
        int length = lowerKind.length();
        return name.equals(lowerKind) || pluralOf(lowerKind, length, "s") || pluralOf(lowerKind, length, "es")
                || lowerKind.endsWith("y") && pluralOf(lowerKind, length - 1, "ies");
    }

    /** Whether this name is the first {@code stem} characters of {@code lower} followed by {@code ending}. */
    private boolean pluralOf(String lower, int stem, String ending) {
        return name.length() == stem + ending.length() && name.regionMatches(0, lower, 0, stem) && name.endsWith(ending);
    }

    @Override
    public String toString() { return text; }
}
