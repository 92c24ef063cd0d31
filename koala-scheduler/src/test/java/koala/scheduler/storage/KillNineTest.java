package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What survives a {@code kill -9}: another JVM opens a store and keeps submits there (job, history
 * row and answer, as {@link UnitOfWorkTest#submit} writes them); it is killed with SIGKILL in the
 * middle of a unit, and the store is opened again here.
 */
class KillNineTest {
    @TempDir
    Path dir;

    /**
     * Job 1 is kept in a unit that returned, job 2 in a unit that threw, job 3 written on its own (a
     * unit of its own); job 4's unit is under way when the process is killed. After the reopen: jobs 1
     * and 3, each with its history and answer; nothing of job 2 or job 4.
     */
    @Test
    void whatACommittedUnitWroteSurvivesAndWhatAnUnfinishedOrFailedOneWroteDoesNot() throws Exception {
        Path db = dir.resolve("koala");
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Writer.class.getName(), db.toString())
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            StringBuilder said = new StringBuilder();
            while ((line = out.readLine()) != null && !line.equals("in unit 4")) {
                said.append(line).append('\n');
            }
            assertThat(line).as("what the writer said:%n%s", said).isEqualTo("in unit 4");
            writer.destroyForcibly(); // SIGKILL: no shutdown hook, no close of the database
            assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(writer.exitValue()).as("killed by signal 9").isEqualTo(128 + 9);
        } finally {
            writer.destroyForcibly();
        }
        try (H2Store store = H2Store.open(db)) {
            assertThat(UnitOfWorkTest.kept(store, 1)).as("job 1, its unit returned").isTrue();
            assertThat(UnitOfWorkTest.kept(store, 2)).as("job 2, its unit threw").isFalse();
            assertThat(UnitOfWorkTest.kept(store, 3)).as("job 3, written outside a unit").isTrue();
            assertThat(UnitOfWorkTest.kept(store, 4)).as("job 4, its unit under way at the kill").isFalse();
        }
    }

    /** The writer: tells the test what it has done, line by line, and waits in job 4's unit to be killed. */
    public static final class Writer {
        public static void main(String[] args) throws Exception {
            H2Store store = H2Store.open(Path.of(args[0]));
            store.inTransaction(() -> UnitOfWorkTest.submit(store, 1));
            System.out.println("unit 1 returned");
            try {
                store.inTransaction(() -> {
                    UnitOfWorkTest.submit(store, 2);
                    throw new IllegalStateException("unit 2 fails");
                });
            } catch (IllegalStateException expected) {
                System.out.println("unit 2 threw");
            }
            UnitOfWorkTest.submit(store, 3);
            System.out.println("job 3 written");
            store.inTransaction(() -> {
                UnitOfWorkTest.submit(store, 4);
                System.out.println("in unit 4");
                System.out.flush();
                try {
                    Thread.sleep(600_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }
}
