package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.fluent.Application;
import koala.fluent.FrameworkSettings;
import koala.fluent.Metrics;
import koala.fluent.FluentWorker;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.provisioning.PolicyKind;
import org.junit.jupiter.api.Test;

/** Worked examples: the state a given journal leaves a restarted master in. */
class RecoveryTest {
    static final Instant T = Instant.parse("2026-11-25T10:00:00Z");
    static final FrameworkSettings STATIC_4 = new FrameworkSettings(PolicyKind.STATIC, 4, Duration.ofSeconds(60));
    static final AppRequest RL = new AppRequest("rl", 20_000L, 40.0, 5_000L, null, null);
    /** n = 1: 2 mappers, a reader and a counter, 4 slots. */
    static final AppRequest SWC = new AppRequest("swc", 6_000L, 5.0, 0L, 1, "/home/koala/words.txt");

    /** Two workers of 4 slots; job j1 of an RL and three word counts; the first word count finished at T+10. */
    static List<JournalEntry> rlAndThreeWordCounts() {
        return List.of(
                new JournalEntry.Joined(T, "w1", "http://w1:7000", 4),
                new JournalEntry.Joined(T.plusSeconds(1), "w2", "http://w2:7000", 4),
                arrived(T.plusSeconds(2), "j1", "rl1", "swc1", "swc2", "swc3"),
                new JournalEntry.Placed(T.plusSeconds(2), "j1", "report only"),
                new JournalEntry.Orchestrator(T.plusSeconds(2), "j1.rl1", "o1"),
                new JournalEntry.Orchestrator(T.plusSeconds(2), "j1.swc1", "o1"),
                new JournalEntry.Ended(T.plusSeconds(10), "j1.swc1", AppBook.State.FINISHED, "ok: 400 words",
                        Map.of("words", 400)));
    }

    @Test
    void placementsAreReplayedOntoTheSameWorkersAndTheQueueKeepsItsOrder() {
        MasterRecovery.Recovered r = MasterRecovery.replay(rlAndThreeWordCounts(), STATIC_4, T.plusSeconds(30));

        // j1 placed at T+2: rl1 takes idle w1 (first by id); swc1's 4 slots go to w2, the only room;
        // swc2 and swc3 queue. swc1 ended at T+10: swc2 started from the queue on w2, swc3 still waits.
        assertThat(r.state().workers()).containsExactly(
                new FluentWorker("w1", 4, List.of(new FluentWorker.Running("j1.rl1", 4)), null),
                new FluentWorker("w2", 4, List.of(new FluentWorker.Running("j1.swc2", 4)), null));
        assertThat(r.state().queue()).extracting(Application::id).containsExactly("j1.swc3");
        assertThat(r.state().running()).extracting(a -> a.app().id(), a -> a.startedAt()).containsExactly(
                org.assertj.core.groups.Tuple.tuple("j1.rl1", T.plusSeconds(2)),
                org.assertj.core.groups.Tuple.tuple("j1.swc2", T.plusSeconds(10)));
        assertThat(r.book().all()).extracting(AppBook.Entry::id, AppBook.Entry::state, AppBook.Entry::orchestrator)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("j1.rl1", AppBook.State.RUNNING, "o1"),
                        org.assertj.core.groups.Tuple.tuple("j1.swc1", AppBook.State.FINISHED, "o1"),
                        org.assertj.core.groups.Tuple.tuple("j1.swc2", AppBook.State.RUNNING, null),
                        org.assertj.core.groups.Tuple.tuple("j1.swc3", AppBook.State.QUEUED, null));
        assertThat(r.book().get("j1.swc1").result()).containsEntry("words", 400);
        assertThat(r.urls()).containsExactly(Map.entry("w1", "http://w1:7000"), Map.entry("w2", "http://w2:7000"));
        assertThat(r.jobs()).isEqualTo(1);
        assertThat(r.waiting()).isEmpty();
        Metrics m = r.state().metrics(T.plusSeconds(10));
        assertThat(List.of(m.accepted(), m.queued(), m.rejected(), m.startedFromQueue(), m.finished(), m.waiting()))
                .containsExactly(2, 2, 0, 1, 1, 1);
        // w1 joined at T and was idle until rl1 took it at T+2; w2 was busy from T+2 to T+10
        assertThat(m.workerTime().get("w1").idle()).isEqualTo(Duration.ofSeconds(2));
        assertThat(m.workerTime().get("w2").busy()).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void aJobWaitingForItsGrowAndOneBehindItWaitAgainInArrivalOrder() {
        List<JournalEntry> journal = List.of(
                arrived(T, "j1", "rl1", "rl2"),
                new JournalEntry.GrowAsked(T, "j1", List.of("w1", "w2"), "asked to grow 2, granted 2"),
                arrived(T.plusSeconds(1), "j2", "rl1"),
                arrived(T.plusSeconds(2), "j3", "swc1"),
                new JournalEntry.Joined(T.plusSeconds(3), "w1", "http://w1:7000", 4));

        MasterRecovery.Recovered r = MasterRecovery.replay(journal, STATIC_4, T.plusSeconds(5));

        assertThat(r.pending().job().arrived().job()).isEqualTo("j1");
        assertThat(r.pending().nodes()).containsExactly("w1", "w2");
        assertThat(r.pending().note()).isEqualTo("asked to grow 2, granted 2");
        assertThat(r.waiting()).extracting(w -> w.job().job().id()).containsExactly("j2", "j3");
        assertThat(r.waiting().get(1).job().job().apps()).extracting(Application::id, Application::components)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("j3.swc1", 4));
        assertThat(r.jobs()).isEqualTo(3);
        assertThat(r.state().workers()).extracting(FluentWorker::id).containsExactly("w1");
        assertThat(r.book().all()).isEmpty();
    }

    @Test
    void aWorkerThatLeftIsGoneAndASnapshotStandsForEverythingBeforeIt() {
        MasterRecovery.Recovered before = MasterRecovery.replay(rlAndThreeWordCounts(), STATIC_4, T.plusSeconds(30));
        JournalEntry.Snapshot snapshot = new JournalEntry.Snapshot(T.plusSeconds(11), before.state().snapshot(),
                before.book().all(), before.urls(), List.of(), null, before.jobs(), before.growNotes(), List.of());
        List<JournalEntry> compacted = List.of(snapshot,
                new JournalEntry.Ended(T.plusSeconds(12), "j1.swc2", AppBook.State.FINISHED, "ok", Map.of()),
                new JournalEntry.Ended(T.plusSeconds(22), "j1.rl1", AppBook.State.FINISHED, "ok", Map.of()),
                new JournalEntry.Left(T.plusSeconds(23), "w1"));

        MasterRecovery.Recovered r = MasterRecovery.replay(compacted, STATIC_4, T.plusSeconds(30));

        // swc2 ended at T+12: swc3 started from the queue on w2; rl1 ended at T+22 and idle w1 left at T+23
        assertThat(r.state().workers()).containsExactly(
                new FluentWorker("w2", 4, List.of(new FluentWorker.Running("j1.swc3", 4)), null));
        assertThat(r.state().queue()).isEmpty();
        assertThat(r.book().get("j1.swc3").state()).isEqualTo(AppBook.State.RUNNING);
        assertThat(r.gone()).containsExactly("w1");
        assertThat(r.urls()).containsOnlyKeys("w2");
        Metrics m = r.state().metrics(T.plusSeconds(23));
        assertThat(List.of(m.startedFromQueue(), m.finished(), m.running())).containsExactly(2, 3, 1);
    }

    @Test
    void aSnapshotKeepsOnlyTheLatestEndedApplications() {
        MasterRecovery.Recovered r = MasterRecovery.replay(rlAndThreeWordCounts(), STATIC_4, T.plusSeconds(30));
        JournalEntry.Snapshot none = MasterRecovery.snapshot(T.plusSeconds(11), r.state(), r.book(), r.urls(), List.of(),
                null, r.jobs(), Map.of("j1", "report only"), java.util.Set.of(), 0);
        assertThat(none.book()).extracting(AppBook.Entry::id).containsExactly("j1.rl1", "j1.swc2", "j1.swc3");
        assertThat(none.growNotes()).containsEntry("j1", "report only");
        JournalEntry.Snapshot one = MasterRecovery.snapshot(T.plusSeconds(11), r.state(), r.book(), r.urls(), List.of(),
                null, r.jobs(), Map.of(), java.util.Set.of(), 1);
        assertThat(one.book()).hasSize(4);
    }

    @Test
    void aJournalThatPlacesAJobThatNeverArrivedIsRefused() {
        assertThatThrownBy(() -> MasterRecovery.replay(List.of(new JournalEntry.Placed(T, "j9", null)), STATIC_4, T))
                .hasMessageContaining("places job j9 before it arrived");
    }

    static JournalEntry.Arrived arrived(Instant at, String job, String... apps) {
        Map<String, AppRequest> requests = new LinkedHashMap<>();
        Map<String, JobIntake.Expected> expected = new LinkedHashMap<>();
        for (String app : apps) {
            requests.put(job + "." + app, app.startsWith("rl") ? RL : SWC);
            if (app.startsWith("swc")) {
                expected.put(job + "." + app, new JobIntake.Expected(400, 40));
            }
        }
        return new JournalEntry.Arrived(at, job, null, List.copyOf(requests.keySet()), requests, expected);
    }
}
