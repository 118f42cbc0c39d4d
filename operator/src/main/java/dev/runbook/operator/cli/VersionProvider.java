package dev.runbook.operator.cli;

import picocli.CommandLine;

/** The version from the jar's manifest, or "development" when run from classes. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = RunbookCommand.class.getPackage().getImplementationVersion();
        return new String[] {"runbook " + (version == null ? "development" : version)};
    }
}
