package dev.runbook.operator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.engine.yaml.YamlFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The metric names the chart's dashboard and alerts read, and the names a scrape serves: for checking the
 * first against the second (WhyIT), and the scanner against the files (ChartQueriesTest).
 */
public final class ChartQueries {
    private ChartQueries() {}

    /** The names every query of the dashboard reads: its panels' targets and its variables' queries. */
    public static Set<String> dashboard(Path json) throws IOException {
        Set<String> names = new TreeSet<>();
        collect(new ObjectMapper().readTree(Files.readString(json)), names);
        return names;
    }

    private static void collect(JsonNode node, Set<String> names) {
        if (node.isObject()) {
            if ("datasource".equals(node.path("type").asText()) && node.has("name")) return; // a data source variable: no query
            node.fields().forEachRemaining(field -> {
                boolean query = field.getKey().equals("expr") || field.getKey().equals("query") && field.getValue().isTextual();
                if (query) names.addAll(PromqlMetricNames.of(field.getValue().asText()));
                else collect(field.getValue(), names);
            });
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, names));
        }
    }

    /** The names every alert's and recording rule's expression of a Prometheus rules file reads. */
    @SuppressWarnings("unchecked")
    public static Set<String> rules(Path file) throws IOException {
        Set<String> names = new TreeSet<>();
        Map<String, Object> rules = (Map<String, Object>) YamlFile.toJava(YamlFile.document(file.toString(), Files.readString(file)));
        for (Object group : (List<Object>) rules.get("groups")) {
            for (Object rule : (List<Object>) ((Map<String, Object>) group).get("rules")) {
                names.addAll(PromqlMetricNames.of(String.valueOf(((Map<String, Object>) rule).get("expr"))));
            }
        }
        return names;
    }

    /** The names of the samples in a Prometheus text scrape. */
    public static Set<String> served(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') end++;
            names.add(line.substring(0, end));
        }
        return names;
    }
}
