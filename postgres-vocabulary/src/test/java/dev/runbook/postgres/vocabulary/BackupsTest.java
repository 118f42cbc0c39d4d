package dev.runbook.postgres.vocabulary;

import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BackupsTest {

    private static final Params SEVEN = new Params(Map.of("backupRetentionCount", 7));

    private static Primary cluster(Map<String, Object> retention) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "postgres.runbook.dev/v1alpha1");
        object.put("kind", "PostgresCluster");
        object.put("metadata", Map.of("name", "pg", "namespace", "demo"));
        object.put("spec", retention == null ? Map.of() : Map.of("backup", Map.of("retention", retention)));
        return new Primary(object);
    }

    @Test
    void orderSortsByCreationTimeThenName() {
        String early = Backups.order(Instant.parse("2026-11-30T02:00:00Z"), "pg-backup-b");
        String late = Backups.order(Instant.parse("2026-11-30T03:00:00Z"), "pg-backup-a");
        String sameTimeLaterName = Backups.order(Instant.parse("2026-11-30T02:00:00Z"), "pg-backup-c");
        assertThat(early).isLessThan(late).isLessThan(Backups.order(Instant.parse("2026-12-01T00:00:00Z"), "a"));
        assertThat(early).isLessThan(sameTimeLaterName);
        assertThat(Backups.order(null, "x")).isEqualTo("0000000000000000000/x").isLessThan(early);
        assertThat(early).isEqualTo("0000000001796004000/pg-backup-b");
    }

    @Test
    void aUsableRetentionHasNoProblem() {
        assertThat(Backups.retentionProblem(cluster(null), SEVEN, "backupRetentionCount")).isNull();
        assertThat(Backups.retentionProblem(cluster(Map.of("count", 3, "maxAge", "30d")), SEVEN, "backupRetentionCount")).isNull();
    }

    @Test
    void aCountBelowOneNamesWhereItCameFrom() {
        assertThat(Backups.retentionProblem(cluster(Map.of("count", 0)), SEVEN, "backupRetentionCount"))
                .isEqualTo("spec.backup.retention.count: 0 keeps no backup; use 1 or more");
        assertThat(Backups.retentionProblem(cluster(null), new Params(Map.of("backupRetentionCount", 0)), "backupRetentionCount"))
                .isEqualTo("the parameter backupRetentionCount: 0 keeps no backup; use 1 or more");
    }

    @Test
    void unreadableFieldsAreProblemsNotExceptions() {
        assertThat(Backups.retentionProblem(cluster(Map.of("count", "many")), SEVEN, "backupRetentionCount"))
                .startsWith("spec.backup.retention.count: 'many' is not a whole number");
        assertThat(Backups.retentionProblem(cluster(Map.of("maxAge", "a month")), SEVEN, "backupRetentionCount"))
                .startsWith("spec.backup.retention.maxAge: 'a month' is not a duration");
    }

    @Test
    void anOnDemandTokenNamesAJobAfterTheCluster() {
        assertThat(Backups.onDemandJobName("pg", "Before upgrade to 17")).isEqualTo("pg-backup-before-upgrade-to-17");
        assertThat(Backups.onDemandJobName("pg", "--x--")).isEqualTo("pg-backup-x");
    }

    @Test
    void aTokenThatCannotNameAJobGivesNoNameAndAProblemThatSaysWhy() {
        assertThat(Backups.onDemandJobName("pg", "!!!")).isNull();
        assertThat(Backups.onDemandProblem("pg", "!!!"))
                .isEqualTo("spec.backup.onDemand '!!!' has no letter or digit to name a backup job; use e.g. before-upgrade-1");
        assertThat(Backups.onDemandJobName("pg", "two\nlines")).isNull();
        assertThat(Backups.onDemandProblem("pg", "two\nlines"))
                .isEqualTo("spec.backup.onDemand must be one line of text without control characters");
        String longToken = "x".repeat(60);
        assertThat(Backups.onDemandJobName("pg", longToken)).isNull();
        assertThat(Backups.onDemandProblem("pg", longToken))
                .isEqualTo("spec.backup.onDemand '" + longToken + "' would name the backup job pg-backup-" + longToken
                        + ", which has 70 characters; a Job name has at most 63: use a shorter token");
        assertThat(Backups.onDemandJobName("pg", "x".repeat(53))).hasSize(63);
    }

    @Test
    void theSettingsSummarySaysScheduleCountAndAge() {
        assertThat(Backups.settingsSummary("0 2 * * *", 7, 30 * 86_400L))
                .isEqualTo("scheduled at '0 2 * * *' (UTC); keeps the newest 7 completed backups, none older than 30d but the newest");
        assertThat(Backups.settingsSummary("", 3, -1))
                .isEqualTo("no schedule (on demand only); keeps the newest 3 completed backups");
    }
}
