package dev.runbook.rules.function;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ListsTest {

    /** A fact as a rule collects it: a field to order by, a count and a message. */
    record Hold(String field, int count, String message) {}

    private final List<Hold> holds = List.of(new Hold("spec.b", 3, "b holds 3"), new Hold("spec.a", 2, "a holds 2"),
            new Hold("spec.b", 1, "b again holds 1"));

    @Test
    void sortedByOrdersByTheKeyAndKeepsTiesInTheirOrder() {
        assertThat(Lists.sortedBy(holds, Hold::field)).extracting(Hold::message).containsExactly("a holds 2", "b holds 3", "b again holds 1");
        assertThat(Lists.sortedBy(holds, Hold::count)).extracting(Hold::count).containsExactly(1, 2, 3);
    }

    @Test
    void sortedByLeavesTheCollectedListAsItIs() {
        List<Hold> collected = new ArrayList<>(holds);
        Lists.sortedBy(collected, Hold::field);
        assertThat(collected).isEqualTo(holds);
    }

    @Test
    void joinKeepsTheOrderAndJoinSortedSortsTheTexts() {
        assertThat(Lists.join(holds, Hold::message, "; ")).isEqualTo("b holds 3; a holds 2; b again holds 1");
        assertThat(Lists.joinSorted(holds, Hold::message, ", ")).isEqualTo("a holds 2, b again holds 1, b holds 3");
        assertThat(Lists.join(List.of(), Object::toString, "; ")).isEmpty();
        assertThat(Lists.joinSorted(List.of(), Object::toString, "; ")).isEmpty();
    }

    @Test
    void joinSortedKeepsEqualTexts() {
        assertThat(Lists.joinSorted(List.of("pg-2", "pg-1", "pg-2"), text -> text, " and ")).isEqualTo("pg-1 and pg-2 and pg-2");
    }

    @Test
    void largestIsTheLargestCountAndNeverLessThanAtLeast() {
        assertThat(Lists.largest(holds, Hold::count, 1)).isEqualTo(3);
        assertThat(Lists.largest(holds, Hold::count, 5)).isEqualTo(5);
        assertThat(Lists.largest(List.<Hold>of(), Hold::count, 2)).isEqualTo(2);
    }
}
