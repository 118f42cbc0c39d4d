package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.AbstractClassTypeDeclarationDescr;
import org.drools.drl.ast.descr.AccumulateImportDescr;
import org.drools.drl.ast.descr.AnnotatedBaseDescr;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.EntryPointDeclarationDescr;
import org.drools.drl.ast.descr.EnumDeclarationDescr;
import org.drools.drl.ast.descr.EnumLiteralDescr;
import org.drools.drl.ast.descr.FunctionDescr;
import org.drools.drl.ast.descr.FunctionImportDescr;
import org.drools.drl.ast.descr.GlobalDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.QualifiedName;
import org.drools.drl.ast.descr.QueryDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.ast.descr.TypeFieldDescr;
import org.drools.drl.ast.descr.WindowDeclarationDescr;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@link RuleTreeCheck} for one file: its package-level parts and its declarations, rules and queries. */
final class DrlFileCheck {
    /** The rule attributes a runbook may use; the others (timer, duration, calendars) start timers or are evaluated while Drools builds. */
    private static final Set<String> RULE_ATTRIBUTES = Set.of("salience", "enabled", "no-loop", "lock-on-active",
            "auto-focus", "agenda-group", "activation-group", "ruleflow-group", "date-effective", "date-expires", "dialect");
    private static final Set<String> EXPRESSION_ATTRIBUTES = Set.of("salience", "enabled");
    private static final String BUILD_TIME = "evaluated by MVEL while Drools builds the bundle (in lint, pack and the "
            + "operator's vetting, before any budget applies)";

    private final DescrText text;
    private final ClassNames classes;
    private final DeclaredTypes declared;
    private final Set<String> queries;
    private final AllowList allowList;
    private final MvelExpressionCheck check;
    private final List<Problem> problems;
    private final Map<String, StaticType> functions = new HashMap<>();
    private final Map<String, StaticType> globals = new HashMap<>();

    DrlFileCheck(ParsedDrl drl, ClassNames classes, DeclaredTypes declared, Set<String> queries, MemberResolver members,
                 AllowList allowList, List<Problem> problems) {
        this.text = new DescrText(drl);
        this.classes = classes;
        this.declared = declared;
        this.queries = queries;
        this.allowList = allowList;
        this.check = new MvelExpressionCheck(allowList, classes, declared, members, false);
        this.problems = problems;
    }

    void run() {
        PackageDescr pkg = textDescr();
        for (AttributeDescr attribute : pkg.getAttributes()) attribute(attribute, null);
        if (pkg.getUnit() != null) refuse(pkg.getUnit(), "unit", "a rule unit is not allowed in rules: write plain rules over the vocabulary's facts");
        for (FunctionImportDescr imported : pkg.getFunctionImports()) functionImport(imported);
        for (AccumulateImportDescr imported : pkg.getAccumulateImports()) {
            refuse(imported, imported.getTarget(), "import accumulate is not allowed in rules: it makes Drools run a class "
                    + "of the bundle's choosing; use the accumulate functions (count, sum, min, max, collectList, ...)");
        }
        for (EntryPointDeclarationDescr entryPoint : pkg.getEntryPointDeclarations()) {
            refuse(entryPoint, "entry-point", "declare entry-point is not allowed in rules: facts come from the observed cluster");
        }
        for (WindowDeclarationDescr window : pkg.getWindowDeclarations()) {
            refuse(window, "window", "declare window is not allowed in rules: a sliding window needs a clock of Drools' own; "
                    + "compare times with the Clock fact");
        }
        for (GlobalDescr global : pkg.getGlobals()) globals.put(global.getIdentifier(), declared.typeNamed(global.getType(), classes));
        for (FunctionDescr function : pkg.getFunctions()) {
            dialect(function, function.getDialect(), "function " + function.getName());
            functions.put(function.getName(), declared.typeNamed(function.getReturnType(), classes));
        }
        for (AbstractClassTypeDeclarationDescr type : pkg.getClassAndEnumDeclarationDescrs()) declaration(type);
        for (RuleDescr rule : pkg.getRules()) rule(rule);
    }

    private PackageDescr textDescr() {
        return text.drl().descr();
    }

    /** import function a.b.C.m / import static a.b.C.m: the name m then calls C.m from any condition. */
    private void functionImport(FunctionImportDescr imported) {
        String target = imported.getTarget();
        int dot = target.lastIndexOf('.');
        if (dot < 0) return;
        String className = target.substring(0, dot);
        String member = target.substring(dot + 1);
        boolean allowed = member.equals("*") ? allowList.permitsClass(className) : allowList.permitsMember(className, member);
        // A class the engine cannot load is the bundle's own (a function of another of its packages): bytecode, checked as such.
        Class<?> type = classes.classOf(className);
        if (!allowed && type != null) {
            problems.add(text.at(text.offsetOf(className, imported), className + "." + member
                    + " is not allowed in rules: not on the allow-list (see docs/security.md for what rules may call)"));
        }
        if (type != null && !member.equals("*")) functions.put(member, new StaticType.ClassRef(type));
    }

    private void declaration(AbstractClassTypeDeclarationDescr type) {
        metadata(type, "declare " + type.getTypeName());
        if (!(type instanceof EnumDeclarationDescr)) {
            for (QualifiedName superType : type.getSuperTypes()) {
                if (superType.getFullName().equals("java.lang.Object") || declared.declares(superType.getFullName())) continue;
                refuse(type, superType.getName(), "declare " + type.getTypeName() + " extends " + superType.getFullName()
                        + " is not allowed: a declared type may extend only another type the bundle declares (the members of "
                        + "a class it extends would count as the bundle's own)");
            }
        }
        for (TypeFieldDescr field : type.getFields().values()) {
            metadata(field, field.getFieldName());
            String initial = field.getInitExpr();
            if (initial != null && !PlainLiteral.is(initial)) {
                problems.add(text.at(text.offsetOf(initial, field), field.getFieldName() + " : " + field.getPattern().getObjectType()
                        + " = " + initial.strip() + ": a declared field's default is " + BUILD_TIME
                        + ", so it must be a plain literal (a string, a number, true, false, null); set the value in a rule"));
            }
        }
        if (type instanceof EnumDeclarationDescr e) {
            for (EnumLiteralDescr literal : e.getLiterals()) {
                metadata(literal, literal.getName());
                for (String argument : literal.getConstructorArgs()) {
                    if (PlainLiteral.is(argument)) continue;
                    problems.add(text.at(text.offsetOf(argument, literal), literal.getName() + "(" + argument.strip()
                            + "): an enum constant's argument is evaluated when the type is built, so it must be a plain literal"));
                }
            }
        }
    }

    private void rule(RuleDescr rule) {
        String what = (rule.isQuery() ? "query \"" : "rule \"") + rule.getName() + "\"";
        metadata(rule, what);
        MvelScope scope = MvelScope.rule(globals, functions);
        if (rule instanceof QueryDescr query && query.getParameters() != null) {
            for (int i = 0; i < query.getParameters().length; i++) {
                scope.bind(query.getParameters()[i], declared.typeNamed(query.getParameterTypes()[i], classes));
            }
        }
        new ConditionWalk(text, check, declared, classes, queries, problems).walk(rule.getLhs(), scope);
        // After the conditions: a salience or an enabled expression reads the rule's bindings.
        for (AttributeDescr attribute : rule.getAttributes().values()) attribute(attribute, scope);
    }

    /** A package's attribute (scope null) or a rule's. */
    private void attribute(AttributeDescr attribute, MvelScope scope) {
        String name = attribute.getName();
        if (name.equals("dialect")) {
            dialect(attribute, attribute.getValue(), "dialect");
        } else if (scope == null || !RULE_ATTRIBUTES.contains(name)) {
            refuse(attribute, name, "the attribute " + name + " is not allowed in rules: runbooks use salience, enabled, no-loop, "
                    + "lock-on-active, auto-focus, the groups and date-effective/date-expires (a timer, a duration or a calendar "
                    + "would fire rules outside a cycle; compare times with the Clock fact)");
        } else if (EXPRESSION_ATTRIBUTES.contains(name) && !PlainLiteral.is(attribute.getValue())) {
            new ConditionWalk(text, check, declared, classes, queries, problems).expression(attribute.getValue(), attribute, scope);
        }
    }

    private void dialect(BaseDescr where, String dialect, String what) {
        if (dialect == null || dialect.strip().replaceAll("^[\"']|[\"']$", "").equals("java")) return;
        refuse(where, "dialect", what + ": dialect \"" + dialect + "\" is not allowed: MVEL code is interpreted and can be "
                + "neither checked nor bounded; write consequences and functions in Java (the default dialect)");
    }

    /** Metadata ({@code @Name(value)}) on a rule, a query, a type, a field or an enum constant: evaluated while Drools builds. */
    private void metadata(AnnotatedBaseDescr owner, String what) {
        for (AnnotationDescr annotation : owner.getAnnotations()) {
            for (Object value : annotation.getValueMap().values()) {
                if (value instanceof String s && PlainLiteral.is(s)) continue;
                int at = text.offsetOf("@" + annotation.getName(), owner);
                problems.add(text.at(at, "@" + annotation.getName() + "(" + value + ") on " + what + " is not allowed: metadata is "
                        + BUILD_TIME + ", so its values must be plain literals (a string, a number, true, false, a name)"));
            }
        }
    }

    private void refuse(BaseDescr where, String near, String message) {
        problems.add(text.at(text.offsetOf(near, where), message));
    }
}
