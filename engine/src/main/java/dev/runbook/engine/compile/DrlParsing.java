package dev.runbook.engine.compile;

import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsError;
import org.drools.drl.parser.DroolsParserException;
import org.kie.api.io.Resource;
import org.kie.internal.io.ResourceFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a bundle's DRL files with Drools' own parser, once: the descriptor trees the containment
 * checks walk are the ones Drools' build is then given (as descriptor resources), so the code that
 * was checked is the code that is built, whatever the text looked like.
 */
final class DrlParsing {
    private DrlParsing() {}

    /** Each file's tree, or null when a file does not parse (its errors, as {@code file:line:col}, added to {@code errors}). */
    static List<ParsedDrl> parse(Map<String, String> drl, List<Problem> errors) {
        List<ParsedDrl> parsed = new ArrayList<>();
        int before = errors.size();
        drl.forEach((path, text) -> {
            // The language level Drools' builder itself would parse with.
            DrlParser parser = new DrlParser(DrlParser.DEFAULT_LANGUAGE_LEVEL);
            Resource resource = ResourceFactory.newByteArrayResource(text.getBytes(StandardCharsets.UTF_8)).setSourcePath(path);
            PackageDescr descr;
            try {
                descr = parser.parse(resource, text);
            } catch (DroolsParserException e) {
                errors.add(Problem.inFile(path, "the DRL parser failed: " + DrlProblems.oneLine(e.getMessage())));
                return;
            }
            for (DroolsError error : parser.getErrors()) errors.add(DrlProblems.of(error, drl));
            if (descr != null && !parser.hasErrors()) parsed.add(new ParsedDrl(path, text, descr));
        });
        return errors.size() > before ? null : parsed;
    }
}
