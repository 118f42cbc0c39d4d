package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.ImportDescr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The first line's check of a bundle's DRL, before Drools builds anything: every part of every file
 * as Drools' own parser read it ({@link ParsedDrl}: package attributes, imports, globals, functions,
 * declared types and enums with their fields, defaults and metadata, rules and queries with their
 * metadata, attributes and conditions, whatever line they are written on). A part Drools evaluates
 * while it builds must be a plain literal; an MVEL expression must stay within the allow-list
 * ({@link MvelExpressionCheck}); Java (consequences, functions, {@code eval}) is checked as bytecode
 * after the build ({@link CodeContainment}); a part the check does not know is refused.
 */
public final class RuleTreeCheck {
    private RuleTreeCheck() {}

    /** Problems in the files, as {@code rules/x.drl:LINE:COL: ...}; empty when all is allowed. */
    public static List<Problem> check(List<ParsedDrl> files, AllowList allowList) {
        Map<ParsedDrl, ClassNames> classes = new LinkedHashMap<>();
        DeclaredTypes declared = new DeclaredTypes();
        for (ParsedDrl drl : files) {
            List<String> imports = new ArrayList<>();
            for (ImportDescr i : drl.descr().getImports()) imports.add(i.getTarget());
            classes.put(drl, new ClassNames(imports, RuleTreeCheck.class.getClassLoader()));
            declared.addAll(drl.descr().getClassAndEnumDeclarationDescrs(), classes.get(drl));
        }
        Set<String> queries = new java.util.HashSet<>();
        for (ParsedDrl drl : files) drl.descr().getRules().forEach(r -> { if (r.isQuery()) queries.add(r.getName()); });
        MemberResolver members = new MemberResolver(allowList, declared, Set.of());
        List<Problem> problems = new ArrayList<>();
        for (ParsedDrl drl : files) {
            new DrlFileCheck(drl, classes.get(drl), declared, queries, members, allowList, problems).run();
        }
        return problems.stream().distinct().toList();
    }
}
