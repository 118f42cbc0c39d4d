package dev.runbook.postgres.vocabulary;

import dev.runbook.postgres.contract.Lsn;
import dev.runbook.rules.docs.FunctionPageExamples;

import java.time.Instant;
import java.util.Map;

/**
 * Runs every {@code | call | result |} row of docs/reference/postgres-contract.md, the page of the
 * postgres-cluster bundle's own functions, as the core's functions.md rows are run.
 */
class DocumentedPostgresFunctionExamplesTest extends FunctionPageExamples {

    DocumentedPostgresFunctionExamplesTest() {
        super("postgres-contract.md", Map.of(
                "Lsn", Lsn.class,
                "Backups", Backups.class,
                "ObjectStores", ObjectStores.class,
                "SlotWal", SlotWal.class), Map.of(
                "Instant", Instant.class));
    }
}
