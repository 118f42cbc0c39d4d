package dev.runbook.operator.observe;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;

import java.util.Objects;

/**
 * Which updates of a primary start a cycle: a new generation (its spec changed), changed labels or
 * annotations (the {@code runbook.dev/mode} and {@code runbook.dev/paused} switches are annotations,
 * and metadata changes do not move the generation), changed finalizers (JOSDK adds a cleanup bundle's
 * finalizer before the first cycle and waits for the update to run it), or a deletion in progress. A change of status
 * alone does not: the operator writes status itself, and rules that read status see it at the next
 * cycle anyway.
 */
public final class MetadataChangeFilter implements OnUpdateFilter<HasMetadata> {
    @Override
    public boolean accept(HasMetadata updated, HasMetadata old) {
        var now = updated.getMetadata();
        var was = old.getMetadata();
        return now.getGeneration() == null
                || !Objects.equals(now.getGeneration(), was.getGeneration())
                || !Objects.equals(now.getLabels(), was.getLabels())
                || !Objects.equals(now.getAnnotations(), was.getAnnotations())
                || !Objects.equals(now.getFinalizers(), was.getFinalizers())
                || now.getDeletionTimestamp() != null;
    }
}
