package dev.runbook.engine.containment;

import org.drools.drl.ast.descr.PackageDescr;

/**
 * One DRL file as Drools' own parser read it: the descriptor tree that the containment checks walk
 * and that Drools' build then compiles as it is (never parsed again), so what was checked is what
 * runs. {@code text} is the file, for placing problems.
 */
public record ParsedDrl(String file, String text, PackageDescr descr) {}
