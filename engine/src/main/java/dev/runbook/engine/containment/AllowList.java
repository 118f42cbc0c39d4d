package dev.runbook.engine.containment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which classes and members code in a bundle may use. Everything not listed is refused. The
 * defaults are in {@code allow-list.txt} next to this class (its header explains the syntax); an
 * administrator adds entries with {@value #PROPERTY} or {@value #ENVIRONMENT}. Every class is named:
 * a package wildcard ({@code a.b.*}, {@code a.b..}) is refused wherever it is written. Immutable.
 */
public final class AllowList {
    public static final String PROPERTY = "runbook.containment.allow";
    public static final String ENVIRONMENT = "RUNBOOK_CONTAINMENT_ALLOW";
    private static final String ANY = "*";

    private final Set<String> classes = new HashSet<>();
    private final Set<String> members = new HashSet<>();
    private final Set<String> deniedMembers = new HashSet<>();

    private AllowList() {}

    /**
     * Adds the entries of {@code source} (named in the message of a refused entry).
     *
     * @throws IllegalArgumentException for a package wildcard
     */
    private AllowList add(List<String> entries, String source) {
        for (String raw : entries) {
            String entry = raw.strip();
            if (entry.isEmpty() || entry.startsWith("#")) continue;
            if (entry.startsWith("!")) {
                deniedMembers.add(entry.substring(1));
            } else if (entry.endsWith(".*") || entry.endsWith("..")) {
                throw new IllegalArgumentException(source + ": the allow-list entry " + entry + " is a package wildcard, "
                        + "which is not allowed: name each class (a.b.C) or member (a.b.C#m), so that no class is allowed "
                        + "without a decision (see docs/security.md, \"Extending the allow-list\")");
            } else if (entry.contains("#")) {
                members.add(entry);
            } else {
                classes.add(entry);
            }
        }
        return this;
    }

    /** The defaults plus what the administrator added through the property or the environment. */
    public static AllowList standard() {
        return new AllowList().add(defaults(), "allow-list.txt")
                .add(split(System.getProperty(PROPERTY)), "the system property " + PROPERTY)
                .add(split(System.getenv(ENVIRONMENT)), "the environment variable " + ENVIRONMENT);
    }

    /** What the administrator added through the property or the environment: handed on to a worker process. */
    public static List<String> administratorEntries() {
        List<String> entries = new ArrayList<>(split(System.getProperty(PROPERTY)));
        entries.addAll(split(System.getenv(ENVIRONMENT)));
        return entries;
    }

    /** The defaults and the given entries, in the syntax of {@code allow-list.txt}. */
    public static AllowList of(List<String> extra) {
        return new AllowList().add(defaults(), "allow-list.txt").add(extra, "the given entries");
    }

    private static List<String> split(String value) {
        return value == null || value.isBlank() ? List.of() : Arrays.asList(value.split(","));
    }

    private static List<String> defaults() {
        try (InputStream in = AllowList.class.getResourceAsStream("allow-list.txt")) {
            if (in == null) throw new IllegalStateException("allow-list.txt is missing from the engine jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether code may name the class (binary name with dots, nested classes with {@code $}). */
    public boolean permitsClass(String className) {
        String outer = outerClass(className);
        if (deniedMembers.contains(outer + "#" + ANY)) return false;
        return classes.contains(outer);
    }

    /** Whether code may call the method or read the field {@code member} of {@code className}. */
    public boolean permitsMember(String className, String member) {
        String outer = outerClass(className);
        if (deniedMembers.contains(ANY + "#" + member) || deniedMembers.contains(outer + "#" + member)) return false;
        return members.contains(outer + "#" + member) || permitsClass(className);
    }

    /** Whether code may hold, cast to or catch a {@code className}: the class is allowed, or some of its members are. */
    public boolean permitsType(String className) {
        if (permitsClass(className)) return true;
        String prefix = outerClass(className) + "#";
        for (String member : members) if (member.startsWith(prefix)) return true;
        return false;
    }

    /** Every class named whole (not by a member only), for the test that the vocabulary is listed. */
    public Set<String> classes() {
        return Set.copyOf(classes);
    }

    /** Whether {@code member} is refused on every class (e.g. {@code getClass}). */
    public boolean deniesEverywhere(String member) {
        return deniedMembers.contains(ANY + "#" + member);
    }

    private static String outerClass(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }
}
