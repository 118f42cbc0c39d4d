package dev.runbook.operator.isolation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a sandboxed worker sees, as bubblewrap's arguments: new namespaces of every kind (its own user,
 * mount table, network with nothing but a loopback device, process ids, IPC, host name), no further
 * user namespaces inside, no capabilities, an empty environment, and a file system made of read-only binds of the shared libraries
 * ({@code /usr/lib}), the JDK and each class path entry, a private {@code /proc}, a minimal {@code /dev}
 * and an empty {@code /tmp} in memory. No home directory, no kubeconfig, no service-account token, no
 * operator file is in view. It dies with the operator.
 */
final class SandboxView {
    /** The directories of shared libraries the JVM links against, bound read-only when they exist. */
    static final List<String> LIBRARIES = List.of("/usr/lib", "/usr/lib64", "/usr/lib32");
    /** The top-level names merged-/usr systems make symbolic links into /usr, recreated as links. */
    static final List<String> LINKS = List.of("/lib", "/lib64", "/lib32");

    private SandboxView() {}

    /** bubblewrap's arguments for running {@code java} on {@code classPath}, up to and with the {@code --} before the command. */
    static List<String> arguments(Path java, List<String> classPath) {
        List<String> args = new ArrayList<>(List.of(
                "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--uid", Integer.toString(WorkerCommand.UNPRIVILEGED_ID), "--gid", Integer.toString(WorkerCommand.UNPRIVILEGED_ID),
                // No user namespace of its own inside (bubblewrap 0.8): fewer kernel paths for its code to try.
                "--disable-userns",
                "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                "--clearenv", "--setenv", "MALLOC_ARENA_MAX", "2"));
        Set<Path> bound = new LinkedHashSet<>();
        for (String library : LIBRARIES) {
            Path path = Path.of(library);
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) bind(args, bound, path);
        }
        for (String link : LINKS) {
            Path path = Path.of(link);
            try {
                if (Files.isSymbolicLink(path)) {
                    args.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), link));
                } else if (Files.isDirectory(path)) {
                    bind(args, bound, path);
                }
            } catch (IOException e) {
                // Not there to be linked: the JVM does not need it.
            }
        }
        Path home = realPath(java).getParent().getParent();
        bind(args, bound, home);
        // A distribution's JDK links its configuration (conf/security/java.security, ...) elsewhere, under /etc.
        for (Path target : linkTargets(home)) bind(args, bound, target);
        // The private /tmp first: a class path entry staged under the operator's /tmp (StagedClassPath) is bound
        // over it, where a /tmp mounted after the binds would hide it.
        args.addAll(List.of("--tmpfs", "/tmp"));
        for (String entry : classPath) bind(args, bound, Path.of(entry));
        args.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--chdir", "/tmp", "--"));
        return args;
    }

    private static void bind(List<String> args, Set<Path> bound, Path path) {
        Path real = realPath(path);
        if (bound.stream().anyMatch(real::startsWith)) return;
        bound.add(real);
        args.addAll(List.of("--ro-bind", real.toString(), real.toString()));
        if (!real.equals(path.toAbsolutePath().normalize()) && !bound.contains(path)) {
            // Reached through a link (a class path entry, say): the link's path must lead there too.
            args.addAll(List.of("--ro-bind", real.toString(), path.toAbsolutePath().normalize().toString()));
        }
    }

    /** The directories the symbolic links inside {@code home} point into, outside {@code home}. */
    private static Set<Path> linkTargets(Path home) {
        Set<Path> targets = new LinkedHashSet<>();
        try (Stream<Path> files = Files.walk(home, 4)) {
            files.filter(Files::isSymbolicLink).forEach(link -> {
                Path target = realPath(link);
                if (!target.startsWith(home) && Files.exists(target)) {
                    targets.add(Files.isDirectory(target) ? target : target.getParent());
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            // Walked what could be read; the JVM names anything missing when it starts.
        }
        return targets;
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
