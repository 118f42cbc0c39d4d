package dev.runbook.rules.function;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * What a rule needs from the facts a {@code collect} gathered, so that no consequence needs a loop
 * (docs/reference/idioms.md#loops): the facts in a stated order, their texts joined, the largest of
 * their counts. Each returns a new value and leaves the collected list as it is.
 */
public final class Lists {

    private Lists() {
    }

    /**
     * The items ordered by a key of each, in a new list; items with equal keys keep the order they
     * came in, so the result is the same for the same facts whatever the order of the key's ties.
     */
    public static <T, K extends Comparable<? super K>> List<T> sortedBy(Collection<? extends T> items, Function<? super T, ? extends K> key) {
        List<T> sorted = new ArrayList<>(items);
        sorted.sort(Comparator.comparing(key));
        return sorted;
    }

    /** The text of each item, in the items' order, joined with the separator ({@code ""} for no items). */
    public static <T> String join(Collection<? extends T> items, Function<? super T, ?> text, String separator) {
        return items.stream().map(item -> String.valueOf(text.apply(item))).collect(Collectors.joining(separator));
    }

    /** The texts of the items sorted, and joined with the separator: the same text for the same facts in any order. */
    public static <T> String joinSorted(Collection<? extends T> items, Function<? super T, ?> text, String separator) {
        return items.stream().map(item -> String.valueOf(text.apply(item))).sorted().collect(Collectors.joining(separator));
    }

    /** The largest count of the items, and never less than {@code atLeast} (which is what no item gives). */
    public static <T> int largest(Collection<? extends T> items, ToIntFunction<? super T> count, int atLeast) {
        int largest = atLeast;
        for (T item : items) largest = Math.max(largest, count.applyAsInt(item));
        return largest;
    }
}
