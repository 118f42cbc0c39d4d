package dev.runbook.engine.containment;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every route by which code in a bundle could reach outside the vocabulary is refused when the
 * bundle is compiled, at the file, line and column of the use. The bundles are under
 * src/test/resources/bundles/contained; none of them compiles, so none of their code runs.
 */
class CodeContainmentTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            exec-in-consequence        |  9 | java.lang.Runtime.getRuntime
            exit-in-consequence        |  9 | java.lang.System.exit
            class-for-name             |  9 | java.lang.Class.forName
            class-loader-of-a-fact     |  9 | getClass
            declared-method            |  9 | java.lang.Class.getDeclaredMethod
            read-a-file                |  9 | java.nio.file.Files.readString
            open-a-socket              |  9 | java.net.Socket
            start-a-thread             |  9 | java.lang.Thread
            read-the-environment       |  9 | java.lang.System.getenv
            exec-in-function           |  6 | java.lang.ProcessBuilder
            exec-two-functions-deep    |  6 | java.lang.Runtime.getRuntime
            exec-in-a-lambda           |  9 | java.lang.Runtime
            exec-in-eval               |  8 | java.lang.Runtime
            catch-throwable            | 11 | java.lang.Throwable
            declaring-class-in-consequence | 10 | java.time.DayOfWeek.getDeclaringClass is not allowed in rules: returns a java.lang.Class
            """)
    void javaCodeOutsideTheAllowListIsRefusedWhereItIsWritten(String bundle, int line, String what) {
        Problem problem = firstProblemOf(bundle);
        assertThat(problem.file()).isEqualTo("rules/attack.drl");
        assertThat(problem.message()).contains(what).contains("not allowed in rules");
        assertThat(problem.line()).isEqualTo(line);
        assertThat(problem.column()).isPositive();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            property-in-constraint     | 7  | System
            class-loader-in-constraint | 7  | getClass
            exec-in-from               | 8  | Runtime
            mvel-consequence           | 6  | dialect
            exec-in-declared-default   | 6  | a declared field's default is evaluated by MVEL
            exec-in-salience           | 6  | java.lang.System
            class-literal-reflection   | 7  | getSuperclass
            reflect-array-in-constraint | 7 | java.lang.reflect.Array
            declaring-class-of-a-declared-enum | 15 | java.lang.Enum.getDeclaringClass: returns a java.lang.Class
            declaring-class-through-a-binding  | 17 | java.lang.Enum.getDeclaringClass: returns a java.lang.Class
            declaring-class-from-a-class       |  8 | java.lang.Enum.getDeclaringClass: returns a java.lang.Class
            member-of-an-object-field          | 10 | MVEL finds no property module on java.lang.Object
            member-of-a-global                 |  9 | MVEL finds no property declaringClass on java.lang.Object
            rebinding-in-a-ternary             | 18 | java.lang.Enum.getDeclaringClass: returns a java.lang.Class
            """)
    void mvelCodeOutsideTheAllowListIsRefusedWhereItIsWritten(String bundle, int line, String what) {
        Problem problem = firstProblemOf(bundle);
        assertThat(problem.file()).isEqualTo("rules/attack.drl");
        assertThat(problem.message()).contains(what);
        assertThat(problem.line()).isEqualTo(line);
    }

    /** A reflective name written as a string index ({@code x["class"]}) is refused like one written as a member. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            exec-in-template                  | 12 | java.lang.Runtime is not allowed
            class-loader-by-index-in-template | 23 | class: reflection is not allowed
            declaring-class-in-template       | 42 | java.lang.Enum.getDeclaringClass: returns a java.lang.Class
            """)
    void aTemplateExpressionOutsideTheAllowListIsRefusedWhereItIsWritten(String bundle, int column, String what) {
        Problem problem = firstProblemOf(bundle);
        assertThat(problem.file()).isEqualTo("templates/config.yaml");
        assertThat(problem.message()).contains(what);
        assertThat(problem.line()).isEqualTo(6);
        assertThat(problem.column()).isEqualTo(column);
    }

    /**
     * A method imported with {@code import function} or {@code import static} is called by a bare
     * name from any MVEL expression of the package: a constraint, a salience, a {@code from}. None
     * of them may run: the import is refused, and the property the rule would set stays unset.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            import-function-in-constraint | runbook.contained.constraint
            import-function-in-salience   | runbook.contained.salience
            import-function-in-from       | runbook.contained.from
            """)
    void aMethodImportedForConditionsIsRefusedAtItsImport(String bundle, String property) {
        Problem problem = firstProblemOf(bundle);
        assertThat(problem.file()).isEqualTo("rules/attack.drl");
        assertThat(problem.message()).contains("java.lang.System.setProperty").contains("not allowed in rules");
        assertThat(problem.line()).isEqualTo(4);
        assertThat(problem.column()).isPositive();
        assertThat(System.getProperty(property)).as("the rule's code must not have run").isNull();
    }

    /**
     * The second layer on its own: the names MVEL resolves in a package Drools compiled, read from
     * that package, refuse the import even when the source text was never checked.
     */
    @org.junit.jupiter.api.Test
    void theCompiledPackagesMvelNamesAreCheckedWithoutTheTextCheck() throws Exception {
        java.nio.file.Path rules = TestBundles.directory("contained/import-function-in-constraint").resolve("rules/attack.drl");
        java.util.Map<String, String> drl = java.util.Map.of("rules/attack.drl", java.nio.file.Files.readString(rules));
        org.kie.internal.builder.KnowledgeBuilder builder = org.kie.internal.builder.KnowledgeBuilderFactory.newKnowledgeBuilder();
        builder.add(org.kie.internal.io.ResourceFactory.newByteArrayResource(drl.get("rules/attack.drl").getBytes(
                java.nio.charset.StandardCharsets.UTF_8)).setSourcePath("rules/attack.drl"), org.kie.api.io.ResourceType.DRL);
        assertThat(builder.getErrors()).isEmpty();

        java.util.List<Problem> problems = CodeContainment.check(builder.getKnowledgePackages(), drl, AllowList.standard());

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.message()).startsWith("java.lang.System.setProperty is not allowed in rules");
            assertThat(p.line()).isEqualTo(4);
        });
        assertThat(CodeContainment.check(builder.getKnowledgePackages(), drl,
                AllowList.of(java.util.List.of("java.lang.System#setProperty")))).isEmpty();
    }

    /**
     * The second look on its own: a declared type that extends a JDK class, built by Drools without the
     * parse-tree check, is refused from the built package's class definition, and so is the member it
     * inherits from that class and the consequence calls as if it were the bundle's own.
     */
    @org.junit.jupiter.api.Test
    void aDeclaredTypeExtendingAJdkClassIsRefusedInTheBuiltPackageToo() throws Exception {
        java.nio.file.Path rules = TestBundles.directory("hostile/extends-jdk-class-in-consequence").resolve("rules/attack.drl");
        java.util.Map<String, String> drl = java.util.Map.of("rules/attack.drl", java.nio.file.Files.readString(rules));
        org.kie.internal.builder.KnowledgeBuilder builder = org.kie.internal.builder.KnowledgeBuilderFactory.newKnowledgeBuilder();
        builder.add(org.kie.internal.io.ResourceFactory.newByteArrayResource(drl.get("rules/attack.drl").getBytes(
                java.nio.charset.StandardCharsets.UTF_8)).setSourcePath("rules/attack.drl"), org.kie.api.io.ResourceType.DRL);
        assertThat(builder.getErrors()).isEmpty();

        java.util.List<Problem> problems = CodeContainment.check(builder.getKnowledgePackages(), drl, AllowList.standard());

        assertThat(problems).anySatisfy(p -> {
            assertThat(p.message()).startsWith("declare Zone extends java.util.TimeZone is not allowed");
            assertThat(p.line()).isEqualTo(5);
        });
        assertThat(problems).anySatisfy(p -> {
            assertThat(p.message()).startsWith("attack.Zone.setDefault is not allowed in rules: inherited from java.util.TimeZone");
            assertThat(p.line()).isEqualTo(13);
        });
    }

    private static Problem firstProblemOf(String bundle) {
        Throwable error = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> BundleCompiler.compile(BundleLoader.load(TestBundles.directory("contained/" + bundle)))));
        assertThat(error).as("compiling %s must be refused", bundle).isInstanceOf(InvalidInputException.class);
        return ((InvalidInputException) error).getProblems().get(0);
    }
}
