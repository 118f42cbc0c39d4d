package dev.runbook.operator.isolation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A root operator's workers run as an unprivileged user, which must reach the class path (a build's ~/.m2 under /root). */
class StagedClassPathTest {

    @Test
    void anEntryBehindAClosedDirectoryIsStagedWhereOthersCanReadItAndAReachableOneStays(@TempDir Path work) throws IOException {
        Path closed = Files.createDirectories(work.resolve("home"));
        Path jar = Files.writeString(closed.resolve("lib.jar"), "jar bytes");
        Path classes = Files.createDirectories(closed.resolve("classes/dev/runbook"));
        Files.writeString(classes.resolve("Main.class"), "class bytes");
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        Path open = Files.createDirectories(work.resolve("open"));
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path release = Path.of(System.getProperty("java.home"), "release");
        assertThat(StagedClassPath.reachableByOthers(jar)).isFalse();
        assertThat(StagedClassPath.reachableByOthers(release)).isTrue();

        List<String> staged = StagedClassPath.reachable(List.of(jar.toString(), closed.resolve("classes").toString(), release.toString()), open);

        assertThat(staged).hasSize(3);
        assertThat(staged.get(2)).isEqualTo(release.toString());
        assertThat(staged).allSatisfy(entry -> assertThat(StagedClassPath.reachableByOthers(Path.of(entry))).as(entry).isTrue());
        assertThat(Files.readString(Path.of(staged.get(0)))).isEqualTo("jar bytes");
        assertThat(Files.readString(Path.of(staged.get(1), "dev/runbook/Main.class"))).isEqualTo("class bytes");
        assertThat(StagedClassPath.reachableByOthers(Path.of(staged.get(1), "dev/runbook/Main.class"))).isTrue();
    }
}
