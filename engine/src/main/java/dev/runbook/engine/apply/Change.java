package dev.runbook.engine.apply;

import java.util.Map;

/**
 * The effect of one action on its target object, as {@link ActionEffect} computes it.
 *
 * @param outcome what the action did: CREATED, UPDATED, DELETED or NONE
 * @param object  the object afterwards; null when the action deleted it or it stays absent. It shares
 *                with the object the action was computed from what the action did not write, and for
 *                NONE it is that object itself: read it, do not change it in place ({@link ActionEffect}).
 */
public record Change(Outcome outcome, Map<String, Object> object) {
}
