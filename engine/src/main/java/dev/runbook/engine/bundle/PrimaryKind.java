package dev.runbook.engine.bundle;

/** The custom resource kind a bundle reconciles, with the plural its CRD declares. */
public record PrimaryKind(Kind kind, String plural, boolean namespaced) {}
