package dev.runbook.engine.apply;

import java.util.Map;

/**
 * The effect of one action on its target object, as {@link ActionEffect} computes it.
 *
 * @param outcome what the action did: CREATED, UPDATED, DELETED or NONE
 * @param object  the object afterwards, holding only JSON values; null when the action deleted it or
 *                it stays absent. For NONE it is a copy of the object as it was.
 */
public record Change(Outcome outcome, Map<String, Object> object) {
}
