package dev.runbook.instance.local;

/** What the data directory holds. */
public enum DataState {
    /** Missing or empty: a new database may be made here, or a copy of the primary's. */
    EMPTY,
    /** A PostgreSQL data directory ({@code PG_VERSION} present). */
    VALID,
    /** Something else is there: it is never written over. */
    FOREIGN
}
