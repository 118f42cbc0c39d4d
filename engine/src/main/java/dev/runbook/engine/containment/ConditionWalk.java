package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.AccumulateDescr;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.BindingDescr;
import org.drools.drl.ast.descr.CollectDescr;
import org.drools.drl.ast.descr.ConditionalBranchDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.EntryPointDescr;
import org.drools.drl.ast.descr.EvalDescr;
import org.drools.drl.ast.descr.ExprConstraintDescr;
import org.drools.drl.ast.descr.FromDescr;
import org.drools.drl.ast.descr.NamedConsequenceDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.PatternSourceDescr;

import java.util.List;
import java.util.Set;

/**
 * Walks the conditions of one rule or query as Drools' parser read them: every pattern with its
 * type, bindings, constraints, metadata and source ({@code from}, {@code accumulate},
 * {@code collect}), every {@code eval}, {@code not}, {@code exists}, {@code forall}, {@code or},
 * conditional branch. Each MVEL expression is checked on the types it starts from; a part of a
 * condition the walk does not know is refused rather than passed.
 */
final class ConditionWalk {
    private final DescrText text;
    private final MvelExpressionCheck check;
    private final DeclaredTypes declared;
    private final ClassNames classes;
    private final Set<String> queries;
    private final List<Problem> problems;

    ConditionWalk(DescrText text, MvelExpressionCheck check, DeclaredTypes declared, ClassNames classes, Set<String> queries,
                  List<Problem> problems) {
        this.text = text;
        this.check = check;
        this.declared = declared;
        this.classes = classes;
        this.queries = queries;
        this.problems = problems;
    }

    void walk(BaseDescr descr, MvelScope scope) {
        if (descr == null || descr instanceof NamedConsequenceDescr) return; // do[name]: Java, checked as bytecode
        if (descr instanceof PatternDescr pattern) {
            pattern(pattern, scope);
        } else if (descr instanceof EvalDescr eval) {
            // Java, compiled to bytecode and checked there; classes and reflection are refused early here.
            expression(String.valueOf(eval.getContent()), eval, scope.untyped());
        } else if (descr instanceof ConditionalBranchDescr branch) {
            walk(branch.getCondition(), scope);
            walk(branch.getElseBranch(), scope);
        } else if (descr instanceof ConditionalElementDescr element) {
            for (Object child : element.getDescrs()) walk((BaseDescr) child, scope);
        } else {
            unknown(descr, "this part of a condition");
        }
    }

    /** Checks one MVEL expression written in {@code where}, naming its problems at their place. */
    void expression(String expression, BaseDescr where, MvelScope scope) {
        int base = text.offsetOf(expression, where);
        for (MvelExpressionCheck.Finding f : check.check(expression, scope)) {
            problems.add(text.at(base + f.offset(), MvelExpressionCheck.message(f)));
        }
    }

    private void pattern(PatternDescr pattern, MvelScope scope) {
        source(pattern, pattern.getSource(), scope);
        if (!pattern.getBehaviors().isEmpty()) unknown(pattern, "a sliding window (over window:...)");
        for (AnnotationDescr annotation : pattern.getAnnotations()) {
            for (Object value : annotation.getValueMap().values()) {
                if (value instanceof String s && (annotation.getName().equals("watch") ? PlainLiteral.isWatchList(s) : PlainLiteral.is(s))) continue;
                problems.add(text.at(text.offsetOf("@" + annotation.getName(), pattern), "@" + annotation.getName() + "(" + value
                        + ") is not allowed on a pattern: its values must be property names or plain literals"));
            }
        }
        String objectType = pattern.getObjectType();
        if (queries.contains(objectType)) {
            query(pattern, scope);
            return;
        }
        StaticType type = patternType(pattern, objectType);
        for (BaseDescr constraint : pattern.getDescrs()) {
            if (constraint instanceof ExprConstraintDescr expression) {
                expression(expression.getExpression(), expression, scope.inPattern(type));
            } else if (constraint instanceof BindingDescr binding) {
                expression(binding.getExpression(), binding, scope.inPattern(type));
                scope.bind(binding.getVariable(), null);
            } else {
                unknown(constraint, "this constraint");
            }
        }
        if (pattern.getIdentifier() != null) scope.bind(pattern.getIdentifier(), type);
    }

    /** A pattern's type: a type the bundle declares, or an allowed class; refused otherwise. */
    private StaticType patternType(PatternDescr pattern, String objectType) {
        DeclaredTypes.Declaration declaration = declared.get(objectType.substring(objectType.lastIndexOf('.') + 1));
        if (declaration != null) return new StaticType.Declared(declaration);
        Class<?> type = classes.classOf(objectType);
        if (type == null) return new StaticType.Unknown("the type " + objectType + ", which the engine cannot load");
        if (!check.permitsType(type)) {
            problems.add(text.at(text.offsetOf(objectType, pattern), type.getName()
                    + " is not allowed in rules: not on the allow-list (see docs/security.md for what rules may call)"));
            return new StaticType.Unknown(type.getName());
        }
        return StaticType.Known.of(type);
    }

    /** A call of a query: its arguments are evaluated while Drools builds, unless they are bindings. */
    private void query(PatternDescr call, MvelScope scope) {
        for (BaseDescr argument : call.getDescrs()) {
            String value = argument instanceof ExprConstraintDescr e ? e.getExpression() : argument.getText();
            if (value != null && (PlainLiteral.is(value) || value.strip().matches("\\$?[A-Za-z_][\\w$]*"))) continue;
            problems.add(text.at(text.offsetOf(value, argument), "the query " + call.getObjectType() + "(" + value
                    + "): a query's arguments are evaluated by MVEL while Drools builds the bundle, so each must be a "
                    + "binding or a plain literal"));
        }
        if (call.getIdentifier() != null) scope.bind(call.getIdentifier(), null);
    }

    private void source(PatternDescr pattern, PatternSourceDescr source, MvelScope scope) {
        if (source == null || source instanceof EntryPointDescr) return;
        if (source instanceof FromDescr from) {
            expression(from.getExpression(), pattern, scope);
        } else if (source instanceof CollectDescr collect) {
            walk(collect.getInputPattern(), scope);
        } else if (source instanceof AccumulateDescr accumulate) {
            accumulate(pattern, accumulate, scope);
        } else {
            unknown(pattern, "this source of a pattern");
        }
    }

    private void accumulate(PatternDescr pattern, AccumulateDescr accumulate, MvelScope scope) {
        if (accumulate.getInitCode() != null || accumulate.getActionCode() != null || accumulate.getResultCode() != null) {
            problems.add(text.at(text.offsetOf("init", accumulate), "accumulate with init/action/result code is not allowed: "
                    + "use an accumulate function (count, sum, min, max, collectList, ...) or a DRL function"));
            return;
        }
        walk(accumulate.getInput(), scope);
        for (AccumulateDescr.AccumulateFunctionCallDescr function : accumulate.getFunctions()) {
            Class<?> result = MvelExpressionCheck.accumulateFunction(function.getFunction());
            if (result == null) {
                problems.add(text.at(text.offsetOf(function.getFunction() + "(", accumulate), "the accumulate function "
                        + function.getFunction() + " is not allowed in rules: use " + MvelExpressionCheck.accumulateFunctions()));
                continue;
            }
            for (String parameter : function.getParams()) expression(parameter, accumulate, scope);
            if (function.getBind() != null) scope.bind(function.getBind(), StaticType.Known.of(result));
        }
    }

    private void unknown(BaseDescr descr, String what) {
        problems.add(text.at(text.start(descr), what + " (" + descr.getClass().getSimpleName().replace("Descr", "")
                + ") is not allowed in rules: the containment check does not read it"));
    }
}
