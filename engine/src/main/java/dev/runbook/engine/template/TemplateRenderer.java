package dev.runbook.engine.template;

import dev.runbook.engine.containment.ContainedRun;
import dev.runbook.engine.policy.ExplicitNamespace;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import org.mvel2.templates.TemplateRuntime;
import org.yaml.snakeyaml.nodes.Node;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders an {@link ApplyTemplate} into the {@link Apply} it stands for. A template sees
 * {@code primary} (the primary resource fact), {@code params} (the bundle parameters), {@code yaml}
 * ({@link YamlQuote}: {@code @{yaml.quote(value)}}) and the rule's own variables. An object without {@code metadata.namespace} lands in the primary's namespace.
 */
public final class TemplateRenderer {
    /**
     * What is done to every rendered object before it is cached and handed out: a pure function of the
     * rendered action and the primary (which the cache's key holds whole), and a value (a record): the
     * cache keys by it. Done once per distinct input instead of once per cycle, so the finished action,
     * and the form, hash and writes the plan computes of it, are reused across cycles.
     */
    public interface Finishing {
        Apply finish(Apply rendered, Primary primary);
    }

    /** Hands the rendered action out as it is. */
    public record AsRendered() implements Finishing {
        @Override
        public Apply finish(Apply rendered, Primary primary) { return rendered; }
    }

    /** What a template sees besides the rule's own variables, with its type (the containment check starts chains on these). */
    public static final Map<String, Class<?>> VARIABLES = Map.of("primary", Primary.class, "params", Params.class,
            "yaml", YamlQuote.class);
    private final TemplateSet templates;
    private final Finishing finishing;
    /**
     * The last primary rendered for and the {@link Digest} of its {@link ValueBytes}: a cycle renders every
     * template for one primary, which is immutable, so its bytes are written and digested once per cycle,
     * not once per template. One reference to an immutable pair, so that threads sharing a renderer never
     * see half of one.
     */
    private volatile PrimaryDigest lastPrimary;

    private record PrimaryDigest(Primary primary, Digest digest) {}

    public TemplateRenderer(TemplateSet templates) {
        this(templates, new AsRendered());
    }

    public TemplateRenderer(TemplateSet templates, Finishing finishing) {
        this.templates = templates;
        this.finishing = finishing;
    }

    /** @throws TemplateException naming the template and what went wrong */
    public Apply render(ApplyTemplate request, Primary primary, Params params) {
        RenderCache cache = templates.cache();
        RenderCache.Input input = new RenderCache.Input(request.getTemplate(), request.getVars(), primary,
                digestOf(primary), params.getValues(), finishing);
        Apply cached = cache.rendered(input);
        if (cached != null) return cached;
        Apply rendered = finishing.finish(renderAnew(request, primary, params, cache), primary);
        cache.rendered(input, rendered);
        return rendered;
    }

    private Digest digestOf(Primary primary) {
        PrimaryDigest last = lastPrimary;
        if (last != null && last.primary() == primary) return last.digest();
        Digest digest = Digest.of(ValueBytes.of(primary.getObject()));
        lastPrimary = new PrimaryDigest(primary, digest);
        return digest;
    }

    private Apply renderAnew(ApplyTemplate request, Primary primary, Params params, RenderCache cache) {
        var compiled = templates.get(request.getTemplate());
        String file = TemplateSet.DIRECTORY + request.getTemplate();
        if (compiled == null) {
            throw new TemplateException(file + ": no such template (the bundle has " + templates.names() + ")");
        }
        Map<String, Object> vars = new HashMap<>(request.getVars());
        vars.put("primary", primary);
        vars.put("params", params);
        vars.put("yaml", YamlQuote.INSTANCE);
        String text;
        try {
            // Its loops check the cycle's budget at every item (LoopChecks); the caller measures what it allocated.
            text = String.valueOf(TemplateRuntime.execute(compiled, null, vars));
        } catch (RuntimeException e) {
            if (ContainedRun.isStop(e)) throw e; // the budget stopped it: the cycle names the template
            throw new TemplateException(file + ": rendering failed: " + TemplateSet.firstLine(e.getMessage()));
        }
        Digest digest = Digest.of(text);
        Map<String, Object> parsed = cache.parsed(digest);
        if (parsed == null) {
            parsed = parse(file, text);
            cache.parsed(digest, parsed);
        }
        Map<String, Object> rendered = ExplicitNamespace.inNamespace(parsed, primary.getNamespace());
        try {
            return new Apply(rendered, request.getTemplate());
        } catch (IllegalArgumentException e) {
            throw new TemplateException(file + ": the rendered object is incomplete: " + e.getMessage());
        }
    }

    /** The rendered text as an immutable object; parsed once per distinct text. */
    private static Map<String, Object> parse(String file, String text) {
        Object object;
        try {
            Node node = YamlFile.document(file + " (rendered)", text);
            object = YamlFile.toJava(node);
        } catch (RuntimeException e) {
            throw new TemplateException("the rendered template is not one YAML object: " + e.getMessage());
        }
        if (!(object instanceof Map<?, ?> map)) {
            throw new TemplateException(file + ": the rendered template is not a Kubernetes object (a YAML mapping)");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> typed = (Map<String, Object>) map;
        return SharedTrees.frozen(typed);
    }

    /** A template that cannot produce an object; its message names the template file. */
    public static final class TemplateException extends RuntimeException {
        public TemplateException(String message) {
            super(message);
        }
    }
}
