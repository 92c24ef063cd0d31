package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The runner supervisor as worked examples on a clock that starts at T and moves only when the
 * test says, with fake runners and starts carried out at once. Instance 31's runner runs on host
 * {@code koala-a} at generation 1; the supervisor runs there too, but where a test says it is on
 * {@code koala-b} (a scheduler that took the lead over there).
 */
class RunnerSupervisorTest {
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");
    private static final RunnerSupervisor.Watched W = new RunnerSupervisor.Watched(31, URI.create("http://10.0.0.1:41234"),
            Path.of("/home/alice/.koala/runners/runner-31.json"), "alice", "koala-a", 1);

    private Instant now = T;
    private final InstantSource clock = () -> now;
    private final FakeRunners runners = new FakeRunners();
    private final List<String> history = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    /** What the store was told, and what was started, in order. */
    private final List<String> done = new ArrayList<>();
    /** The generation the store holds for instance 31. */
    private long generation = W.generation();
    private final RunnerSupervisor.Instances instances = new RunnerSupervisor.Instances() {
        @Override
        public List<RunnerSupervisor.Watched> watched() {
            return failures.isEmpty() ? List.of(W) : List.of(); // a failed allocation is no longer watched
        }

        @Override
        public long replacing(RunnerSupervisor.Watched w, String host, URI url) {
            generation++;
            done.add("recorded generation " + generation + " on " + host + " at " + url);
            return generation;
        }

        @Override
        public void restarted(long id, String note) {
            history.add(note);
        }

        @Override
        public void failed(long id, String reason) {
            failures.add(reason);
        }
    };
    private final RunnerSupervisor supervisor = new RunnerSupervisor(instances, runners, clock, Runnable::run, 3,
            Duration.ofSeconds(30), "koala-a");
    /** The supervisor of a scheduler on another host than the runner's. */
    private final RunnerSupervisor onB = new RunnerSupervisor(instances, runners, clock, Runnable::run, 3,
            Duration.ofSeconds(30), "koala-b");

    @Test
    void aRunnerThatAnswersIsLeftAlone() {
        runners.answers = true;
        supervisor.check();
        assertThat(runners.starts).isZero();
        assertThat(history).isEmpty();
    }

    @Test
    void aRunnerWhoseProcessIsGoneIsStartedAgainAtTheFirstCheckAndTheRestartGoesIntoTheHistory() {
        runners.alive = Optional.of(false);
        supervisor.check();
        assertThat(runners.starts).isEqualTo(1);
        assertThat(history).singleElement().asString().contains("its process is gone").contains("pid 5001");
        runners.answers = true;
        supervisor.check();
        assertThat(runners.starts).isEqualTo(1);
    }

    @Test
    void aRunnerAliveButSilentIsGivenThirtySecondsThenKilledAndStartedAgain() {
        runners.alive = Optional.of(true);
        supervisor.check();
        now = T.plusSeconds(29);
        supervisor.check();
        assertThat(runners.kills).isZero();
        assertThat(runners.starts).isZero();

        now = T.plusSeconds(30);
        supervisor.check();
        assertThat(runners.kills).isEqualTo(1);
        assertThat(runners.starts).isEqualTo(1);
        assertThat(history).singleElement().asString().contains("did not answer for 30 s; killed");
    }

    @Test
    void aRunnerOfThisHostStartedAgainIsOfTheNextGenerationRecordedBeforeItStartsAtTheSameAddress() {
        runners.alive = Optional.of(false);
        supervisor.check();
        assertThat(done).containsExactly("recorded generation 2 on koala-a at http://10.0.0.1:41234",
                "started generation 2 on koala-a at http://10.0.0.1:41234");
        assertThat(history).singleElement().asString().contains("its process is gone").contains("generation 2")
                .doesNotContain(", at ");
    }

    /**
     * The leader on koala-b cannot see koala-a's processes: the pid in the state file (here "gone") is not
     * asked, the runner is not killed; silent on its health route for 30 s it is replaced on koala-b, at
     * koala-b's address on the same port, of generation 2, recorded before the start.
     */
    @Test
    void aRunnerOfAnotherHostIsJudgedByItsHealthRouteAloneAndReplacedOnThisHostOnceSilentThirtySeconds() {
        runners.alive = Optional.of(false);
        onB.check();
        now = T.plusSeconds(29);
        onB.check();
        assertThat(runners.starts).isZero();
        assertThat(runners.aliveAsked).as("its pid means nothing here").isZero();

        now = T.plusSeconds(30);
        onB.check();
        assertThat(runners.kills).isZero();
        assertThat(done).containsExactly("recorded generation 2 on koala-b at http://198.18.0.2:41234",
                "started generation 2 on koala-b at http://198.18.0.2:41234");
        assertThat(history).singleElement().asString().contains("it runs on koala-a, whose processes this host cannot "
                + "see, and its health route at http://10.0.0.1:41234 did not answer for 30 s; one is started on koala-b in "
                + "its place").contains("generation 2, at http://198.18.0.2:41234");
    }

    @Test
    void aRunnerOfAnotherHostThatAnswersIsLeftAloneWhateverItsPidSaysHere() {
        runners.answers = true;
        runners.alive = Optional.of(false);
        onB.check();
        now = T.plusSeconds(60);
        onB.check();
        assertThat(runners.starts).isZero();
        assertThat(done).isEmpty();
    }

    /**
     * Instance 31 is first seen at T, its runner not answering yet and its state not written: it is given until
     * T + 10 s to write it (a runner writes it just after it registered its instance), and is taken for dead then.
     */
    @Test
    void aRunnerJustRegisteredIsGivenTenSecondsToWriteItsState() {
        runners.alive = Optional.empty();
        supervisor.check();
        now = T.plusMillis(9_999);
        supervisor.check();
        assertThat(runners.starts).isZero();

        now = T.plusSeconds(10);
        supervisor.check();
        assertThat(runners.starts).isEqualTo(1);
    }

    @Test
    void aRunnerThatCannotStartIsTriedAtOnceAfterOneSecondAndAfterTwoMoreThenItsInstanceFailsWithEveryReason() {
        seenAnswering();
        runners.alive = Optional.empty();
        runners.failure = "its state file /home/alice/.koala/runners/runner-31.json cannot be read: gone";
        supervisor.check(); // T: try 1
        now = T.plusMillis(999);
        supervisor.check();
        assertThat(runners.starts).isEqualTo(1);
        now = T.plusSeconds(1); // try 2, 1 s after the first failed
        supervisor.check();
        now = T.plusSeconds(2);
        supervisor.check();
        assertThat(runners.starts).isEqualTo(2);
        assertThat(failures).isEmpty();
        now = T.plusSeconds(3); // try 3, 2 s after the second
        supervisor.check();

        assertThat(runners.starts).isEqualTo(3);
        assertThat(failures).singleElement().asString()
                .startsWith("its framework runner died (it does not answer, and its state cannot be read) and could "
                        + "not be started again (try 1: its state file")
                .contains("try 2: ").contains("try 3: ").endsWith("cannot be read: gone)");
        assertThat(history).isEmpty();
        now = T.plusSeconds(60);
        supervisor.check();
        assertThat(runners.starts).isEqualTo(3);
    }

    @Test
    void aSecondTryThatStartsSaysSoInTheHistory() {
        runners.alive = Optional.of(false);
        runners.failure = "it exited with status 1; see runner-31.log";
        supervisor.check();
        runners.failure = null;
        now = T.plusSeconds(1);
        supervisor.check();
        assertThat(runners.starts).isEqualTo(2);
        assertThat(history).singleElement().asString().contains("started again at try 2")
                .contains("serving 1000 ms after it was first found not answering");
        assertThat(failures).isEmpty();
    }

    private final class FakeRunners implements RunnerSupervisor.Runners {
        boolean answers;
        Optional<Boolean> alive = Optional.of(true);
        String failure;
        int starts;
        int kills;
        int aliveAsked;

        @Override
        public boolean answers(RunnerSupervisor.Watched w) {
            return answers;
        }

        @Override
        public Optional<Boolean> alive(RunnerSupervisor.Watched w) {
            aliveAsked++;
            return alive;
        }

        @Override
        public URI addressHere(RunnerSupervisor.Watched w) {
            return URI.create("http://198.18.0.2:" + w.runner().getPort());
        }

        @Override
        public void kill(RunnerSupervisor.Watched w) {
            kills++;
            alive = Optional.of(false);
        }

        @Override
        public String start(RunnerSupervisor.Watched w) {
            starts++;
            done.add("started generation " + w.generation() + " on " + w.host() + " at " + w.runner());
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            return "pid " + (5000 + starts) + ", log runner-31.log";
        }
    }

    /** The instance seen 60 s before T, its runner answering then: a runner that has run a while. */
    private void seenAnswering() {
        now = T.minusSeconds(60);
        runners.answers = true;
        supervisor.check();
        runners.answers = false;
        now = T;
    }
}
