package dev.runbook.operator.docs;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code testenv/image-node} in the background: the node that runs the operator's image for the install
 * journey, under the name deploy/40-deployment.yaml gives it, as {@code kind load image-archive} would
 * load it into a cluster. Closing it stops the node, which stops its pods.
 */
final class ImageNode implements AutoCloseable {
    private static final long STOP_SECONDS = 60;
    private final Process process;

    private ImageNode(Process process) {
        this.process = process;
    }

    static ImageNode start(Path root, Path archive, Path state, Map<String, String> environment) throws IOException {
        Files.createDirectories(state);
        ProcessBuilder builder = new ProcessBuilder(root.resolve("testenv/image-node").toString(), archive.toAbsolutePath().toString(),
                deploymentImage(root), state.toString())
                .redirectErrorStream(true).redirectOutput(state.resolve("node.log").toFile());
        builder.environment().putAll(environment);
        return new ImageNode(builder.start());
    }

    /** The image the Deployment of deploy/ runs. */
    @SuppressWarnings("unchecked")
    private static String deploymentImage(Path root) throws IOException {
        Map<String, Object> deployment = new Yaml().load(Files.readString(root.resolve("deploy/40-deployment.yaml"), StandardCharsets.UTF_8));
        Map<String, Object> template = (Map<String, Object>) ((Map<String, Object>) deployment.get("spec")).get("template");
        List<Map<String, Object>> containers = (List<Map<String, Object>>) ((Map<String, Object>) template.get("spec")).get("containers");
        return (String) containers.get(0).get("image");
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
    }
}
