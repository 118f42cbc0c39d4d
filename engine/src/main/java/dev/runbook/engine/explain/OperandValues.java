package dev.runbook.engine.explain;

import org.drools.drl.ast.descr.AtomicExprDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.BindingDescr;
import org.drools.drl.ast.descr.ConstraintConnectiveDescr;
import org.drools.drl.ast.descr.RelationalExprDescr;
import org.drools.drl.parser.DrlExprParser;
import org.drools.drl.parser.DrlExprParserFactory;
import org.kie.internal.builder.conf.LanguageLevelOption;
import org.mvel2.MVEL;
import org.mvel2.ParserConfiguration;
import org.mvel2.ParserContext;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values a constraint compares, for one fact it was tested against: the operands of its comparisons
 * ({@code failedSeconds} and {@code $cluster.seconds("spec.failoverDelay", ...)} in
 * {@code failedSeconds >= $cluster.seconds(...)}), taken apart by Drools' own expression parser and
 * computed with MVEL, as Drools' classic runtime computes a condition: on the fact, with the variables
 * the conditions before it bound. An operand that cannot be computed this way (a function the rule's
 * package defines, say) says so instead of a value. Only for explanations: the operands are the rule's
 * own, which passed the bundle's allow-list when it compiled.
 */
final class OperandValues {
    private final ParserConfiguration configuration = new ParserConfiguration();

    /** @param imports the rule's file's import lines; @param classLoader where the bundle's classes load from */
    OperandValues(List<String> imports, ClassLoader classLoader) {
        configuration.setClassLoader(classLoader);
        for (String line : imports) {
            String[] words = line.trim().split("\\s+");
            try {
                if (words.length == 2 && !words[1].endsWith(".*")) {
                    Class<?> type = Class.forName(words[1], false, classLoader);
                    configuration.addImport(type.getSimpleName(), type);
                } else if (words.length == 3 && words[1].equals("function")) {
                    int dot = words[2].lastIndexOf('.');
                    Class<?> owner = Class.forName(words[2].substring(0, dot), false, classLoader);
                    String name = words[2].substring(dot + 1);
                    for (Method method : owner.getMethods()) {
                        if (method.getName().equals(name) && Modifier.isStatic(method.getModifiers())) {
                            configuration.addImport(name, method);
                        }
                    }
                }
            } catch (ClassNotFoundException | RuntimeException e) {
                // An import that does not load here (a declared type of another file): operands using it say so.
            }
        }
    }

    /** The operands of {@code constraint}, in the order written, each once; literals left out. */
    static List<String> operands(String constraint) {
        DrlExprParser parser = DrlExprParserFactory.getDrlExprParser(LanguageLevelOption.DRL6);
        ConstraintConnectiveDescr parsed = parser.parse(constraint);
        List<String> operands = new ArrayList<>();
        if (parsed == null || parser.hasErrors()) return operands;
        collect(parsed, operands);
        return operands;
    }

    private static void collect(BaseDescr descr, List<String> operands) {
        if (descr instanceof ConstraintConnectiveDescr connective) {
            connective.getDescrs().forEach(d -> collect(d, operands));
        } else if (descr instanceof RelationalExprDescr relation) {
            collect(relation.getLeft(), operands);
            collect(relation.getRight(), operands);
        } else if (descr instanceof BindingDescr binding) {
            add(binding.getExpression(), operands);
        } else if (descr instanceof AtomicExprDescr atom && !atom.isLiteral()) {
            add(atom.getExpression(), operands);
        }
    }

    private static void add(String expression, List<String> operands) {
        if (expression != null && !expression.isBlank() && !operands.contains(expression.strip())) operands.add(expression.strip());
    }

    /**
     * Each operand of {@code constraint} computed on {@code fact} with {@code variables}: its value, or a
     * sentence saying why it has none.
     */
    Map<String, Object> of(String constraint, Object fact, Map<String, Object> variables) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String operand : operands(constraint)) {
            try {
                Serializable compiled = MVEL.compileExpression(operand, new ParserContext(configuration));
                values.put(operand, shown(MVEL.executeExpression(compiled, fact, new LinkedHashMap<>(variables))));
            } catch (RuntimeException | LinkageError e) {
                values.put(operand, "(not computed here: " + firstLine(e) + ")");
            }
        }
        return values;
    }

    /** A value as the explanation shows it: numbers, booleans and null as they are, anything else as its text. */
    static Object shown(Object value) {
        if (value == null || value instanceof Number || value instanceof Boolean) return value;
        return String.valueOf(value);
    }

    private static String firstLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
