package dev.runbook.operator.command;

import picocli.CommandLine;

/** The version from the jar's manifest, or "development" when run from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = OperatorCommand.class.getPackage().getImplementationVersion();
        return new String[] {"runbook " + (version == null ? "development" : version)};
    }
}
