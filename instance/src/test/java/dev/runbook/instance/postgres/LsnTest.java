package dev.runbook.instance.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LsnTest {
    @Test
    void readsBothFormsTheContractAllows() {
        assertThat(Lsn.parse("0/3000000")).isEqualTo(0x3000000L);
        assertThat(Lsn.parse("1/A")).isEqualTo((1L << 32) + 10);
        assertThat(Lsn.parse("50331648")).isEqualTo(50331648L);
        assertThat(Lsn.parse("")).isEqualTo(Lsn.UNKNOWN);
        assertThat(Lsn.parse("zz/1")).isEqualTo(Lsn.UNKNOWN);
        assertThat(Lsn.format(Lsn.parse("16/B374D848"))).isEqualTo("16/B374D848");
    }
}
