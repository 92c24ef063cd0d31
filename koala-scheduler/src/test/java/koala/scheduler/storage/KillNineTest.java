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

    /**
     * A busy store: 300 units, each a job with its history and answer, and each job saved again in a
     * later unit as a running scheduler does (so that H2 rewrites and drops old chunks, and the store
     * tidies its file every 64 commits); killed in the middle of unit 301. Every unit that returned is
     * there after the reopen.
     */
    @Test
    void everyUnitThatReturnedSurvivesAKillAfterManyCommits() throws Exception {
        Path db = dir.resolve("busy");
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), BusyWriter.class.getName(), db.toString())
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            String last = "";
            while ((line = out.readLine()) != null && !line.equals("in unit 301")) {
                last = line;
            }
            assertThat(line).as("the writer's last line before: %s", last).isEqualTo("in unit 301");
            writer.destroyForcibly();
            assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            writer.destroyForcibly();
        }
        try (H2Store store = H2Store.open(db)) {
            for (long id = 1; id <= 300; id++) {
                assertThat(UnitOfWorkTest.kept(store, id)).as("job %d, its unit returned", id).isTrue();
            }
            assertThat(UnitOfWorkTest.kept(store, 301)).as("job 301, its unit under way at the kill").isFalse();
        }
    }

    /**
     * Killed while it writes: the writer commits a unit per job without pause and says so after each;
     * the test kills it once it has said 500, while it goes on. Every job it said was kept is there.
     */
    @Test
    void aStoreKilledInFullFlowKeepsEveryUnitItSaidReturned() throws Exception {
        killedInFlow(0, 500);
    }

    /** As a scheduler writes: a unit every 20 ms (a round, a call), killed after 150 of them. */
    @Test
    void aStoreKilledAtASchedulersPaceKeepsEveryUnitItSaidReturned() throws Exception {
        killedInFlow(20, 150);
    }

    private void killedInFlow(long pauseMillis, int before) throws Exception {
        Path db = dir.resolve("flow-" + pauseMillis);
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), FlowWriter.class.getName(), db.toString(),
                Long.toString(pauseMillis)).redirectErrorStream(true).start();
        long said = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("kept ")) {
                    said = Long.parseLong(line.substring(5));
                    if (said >= before) {
                        writer.destroyForcibly(); // SIGKILL while it writes on
                        break;
                    }
                }
            }
            assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            writer.destroyForcibly();
        }
        assertThat(said).as("units the writer said were kept").isGreaterThanOrEqualTo(before);
        try (H2Store store = H2Store.open(db)) {
            for (long id = 1; id <= said; id++) {
                assertThat(UnitOfWorkTest.kept(store, id)).as("job %d of %d said kept", id, said).isTrue();
            }
        }
    }

    /** Writes a unit per job, each also saving the job before it again, for ever; says "kept N" after each. */
    public static final class FlowWriter {
        public static void main(String[] args) throws InterruptedException {
            H2Store store = H2Store.open(Path.of(args[0]));
            long pause = Long.parseLong(args[1]);
            for (long id = 1; ; id++) {
                long job = id;
                store.inTransaction(() -> {
                    UnitOfWorkTest.submit(store, job);
                    if (job > 1) {
                        store.saveJob(UnitOfWorkTest.job(job - 1), UnitOfWorkTest.T.plusSeconds(job));
                    }
                });
                System.out.println("kept " + id);
                System.out.flush();
                Thread.sleep(pause); // the writer's pace, not a wait for anything
            }
        }
    }

    /** The busy writer: a unit per job, each also saving the job before it again; waits in unit 301 to be killed. */
    public static final class BusyWriter {
        public static void main(String[] args) throws Exception {
            H2Store store = H2Store.open(Path.of(args[0]));
            for (long id = 1; id <= 300; id++) {
                long job = id;
                store.inTransaction(() -> {
                    UnitOfWorkTest.submit(store, job);
                    if (job > 1) {
                        store.saveJob(UnitOfWorkTest.job(job - 1), UnitOfWorkTest.T.plusSeconds(job));
                    }
                });
            }
            System.out.println("300 units returned");
            store.inTransaction(() -> {
                UnitOfWorkTest.submit(store, 301);
                System.out.println("in unit 301");
                System.out.flush();
                try {
                    Thread.sleep(600_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
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
