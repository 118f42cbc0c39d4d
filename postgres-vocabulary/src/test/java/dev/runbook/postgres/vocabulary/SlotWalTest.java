package dev.runbook.postgres.vocabulary;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlotWalTest {

    @Test
    void entriesOverTheLimitAreNamedWithWhatTheyHold() {
        assertThat(SlotWal.over("pg-1=0,pg-2=2147483648, pg-3 = 1073741825", 1073741824))
                .containsExactly("pg-2 holds 2147483648 bytes", " pg-3  holds 1073741825 bytes");
        assertThat(SlotWal.over("pg-1=1073741824", 1073741824)).isEmpty();
    }

    @Test
    void entriesThatAreNotNameEqualsBytesAreUnreadableAndNeverOver() {
        String report = "pg-1=0, pg-2 ,=5,pg-3=lots,pg-4=99999999999";
        assertThat(SlotWal.unreadable(report)).containsExactly("pg-2", "=5", "pg-3=lots");
        assertThat(SlotWal.over(report, 1024)).containsExactly("pg-4 holds 99999999999 bytes");
    }

    @Test
    void anEmptyReportHasNoEntry() {
        assertThat(SlotWal.unreadable("")).isEmpty();
        assertThat(SlotWal.unreadable(" , ")).isEmpty();
        assertThat(SlotWal.over("", 0)).isEmpty();
        assertThat(SlotWal.unreadable(null)).isEmpty();
    }
}
