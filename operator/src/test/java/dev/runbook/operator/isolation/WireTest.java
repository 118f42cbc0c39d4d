package dev.runbook.operator.isolation;

import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What crosses between the operator and a worker reads back as it was written, and nothing else reads at all. */
class WireTest {
    static final ObjectRef APP = ObjectRef.of("test.runbook.dev/v1", "WebApp", "demo", "shop");
    static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    @Test
    void everyKindOfValueReadsBackAsItWasWritten() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("text", "héllo ✓");
        value.put("whole", 42L);
        value.put("decimal", 2.5);
        value.put("yes", true);
        value.put("no", false);
        value.put("nothing", null);
        value.put("big", new BigInteger("123456789012345678901234567890"));
        value.put("exact", new BigDecimal("0.1000"));
        value.put("letter", 'x');
        value.put("list", List.of(1L, "two", List.of(), Map.of("k", "v")));

        Wire.In in = new Wire.In(new Wire.Out().writeValue(value).toBytes());

        assertThat(in.readValue()).isEqualTo(value);
        in.end();
    }

    @Test
    void anObservationAndADecisionCrossWhole() {
        Primary primary = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "demo", "uid", "u-1", "labels", Map.of("a", "b")),
                "spec", Map.of("counter", "3", "sizes", List.of(1L, 2L))));
        Resource pod = new Resource(Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", "shop-0", "namespace", "demo"),
                "status", Map.of("phase", "Running")));
        Observation observation = new Observation(primary, List.of(pod), NOW, Map.of("delay", "30s"));

        Observation read = DecisionWire.observation(DecisionWire.observation(observation));

        assertThat(read.primary().getObject()).isEqualTo(primary.getObject());
        assertThat(read.secondaries()).extracting(Resource::getObject).containsExactly(pod.getObject());
        assertThat(read.now()).isEqualTo(NOW);
        assertThat(read.parameterOverrides()).isEqualTo(Map.of("delay", "30s"));

        List<Action> actions = everyAction();
        Action withdrawn = actions.get(1);
        Decision decision = new Decision("web-app", "v1", NOW,
                List.of(new Firing("Greet", List.of("WebApp demo/shop"), actions, List.of(withdrawn), List.of("Claim( x=1 )"))),
                actions.stream().map(a -> new PlannedAction(a, List.of("Greet", "Other"))).toList(), List.of());

        Decision back = DecisionWire.decision(DecisionWire.decision(decision), "web-app", "v1", NOW);

        assertThat(back.actions()).map(PlannedAction::form).isEqualTo(decision.actions().stream().map(PlannedAction::form).toList());
        assertThat(back.actions()).map(PlannedAction::rules).allSatisfy(rules -> assertThat(rules).containsExactly("Greet", "Other"));
        Firing firing = back.firings().get(0);
        assertThat(firing.rule()).isEqualTo("Greet");
        assertThat(firing.matched()).containsExactly("WebApp demo/shop");
        assertThat(firing.derived()).containsExactly("Claim( x=1 )");
        assertThat(firing.withdrawn()).singleElement().satisfies(a -> assertThat(a.sameAs(withdrawn)).isTrue());
        // Not part of an action's form, but what the operator's delete checks: the object the rules decided on.
        assertThat(back.actions()).map(PlannedAction::action).filteredOn(Delete.class::isInstance)
                .singleElement().satisfies(a -> assertThat(((Delete) a).getObservedUid()).isEqualTo("uid-of-shop-0"));
    }

    @Test
    void aMalformedMessageIsRefusedWithoutReadingPastItsEnd() {
        byte[] whole = new Wire.Out().writeValue(Map.of("k", List.of("a", "b"))).toBytes();
        for (int cut = 0; cut < whole.length; cut++) {
            byte[] part = Arrays.copyOf(whole, cut);
            assertThatThrownBy(() -> new Wire.In(part).readValue()).isInstanceOf(Wire.WireException.class);
        }
        // A count no message could hold, a tag no value has, nesting past the limit.
        assertThatThrownBy(() -> new Wire.In(new byte[] {7, 0x7f, -1, -1, -1}).readValue())
                .isInstanceOf(Wire.WireException.class).hasMessageContaining("a count of");
        assertThatThrownBy(() -> new Wire.In(new byte[] {99}).readValue()).isInstanceOf(Wire.WireException.class);
        Object deep = "leaf";
        for (int i = 0; i <= Wire.MAX_DEPTH + 1; i++) deep = List.of(deep);
        byte[] tooDeep = new Wire.Out().writeValue(deep).toBytes();
        assertThatThrownBy(() -> new Wire.In(tooDeep).readValue()).isInstanceOf(Wire.WireException.class).hasMessageContaining("deeper");
    }

    /** A worker can send no action a rule could not have built: the constructors check what it sends. */
    @Test
    void anActionNoRuleCouldBuildIsRefused() {
        Wire.Out unknown = new Wire.Out().writeString("exec").writeBoolean(false);
        assertThatThrownBy(() -> ActionWire.read(new Wire.In(unknown.toBytes())))
                .isInstanceOf(Wire.WireException.class).hasMessageContaining("'exec' is not an action");
        Wire.Out badNamespace = new Wire.Out().writeString("delete").writeBoolean(true)
                .writeString("v1").writeString("Pod").writeString("Not A Namespace").writeString("x");
        assertThatThrownBy(() -> ActionWire.read(new Wire.In(badNamespace.toBytes())))
                .isInstanceOf(Wire.WireException.class).hasMessageContaining("no rule could build");
        assertThatThrownBy(() -> new Wire.Out().writeValue(new Object())).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Action> everyAction() {
        List<Action> actions = new ArrayList<>();
        actions.add(new Apply(Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", Map.of("name", "c", "namespace", "demo"),
                "data", Map.of("k", "v")), "config.yaml"));
        actions.add(new ApplyTemplate("config.yaml", Map.of("size", 3L)));
        actions.add(new Delete(ObjectRef.of("v1", "Pod", "demo", "shop-0"), "uid-of-shop-0"));
        actions.add(new EmitEvent(APP, "Normal", "Greeted", "hello"));
        actions.add(new FinishCleanup(APP, "runbook.dev/cleanup"));
        actions.add(new MergePatch(APP, Map.of("spec", Map.of("a", 1L))));
        actions.add(new Requeue(APP, Duration.ofMillis(1500)));
        actions.add(new SetCondition(APP, "Ready", "True", "Fine", "all good"));
        actions.add(new SetMetadataEntry(APP, SetMetadataEntry.Kind.LABEL, "role", "primary"));
        actions.add(new SetMetadataEntry(APP, SetMetadataEntry.Kind.ANNOTATION, "note", null));
        actions.add(new SetStatus(APP, "phase", "Healthy"));
        return actions;
    }
}
