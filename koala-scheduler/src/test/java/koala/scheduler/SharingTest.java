package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's side of sharing, worked through on a grid of 8 worker nodes with none free:
 * instance 1 holds 6 workers, instance 2 holds 2 and asks for 4 more, fair shares, everything
 * taken back in one round (maxTakeBack 100%), grace 15 s.
 */
class SharingTest {
    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final ArbitrationSettings FAIR = ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(1.0);

    /** A grid that records what sharing does to it. */
    private static final class Recorded implements Sharing.Grid {
        final Map<Long, List<String>> workers = new LinkedHashMap<>();
        final Map<Long, koala.placement.Resources> perWorker = new LinkedHashMap<>();
        final List<String> done = new ArrayList<>();
        int free;
        int granted;
        koala.placement.Resources total = koala.placement.Resources.NONE;

        @Override
        public koala.placement.Resources total(String site) {
            return total;
        }

        @Override
        public int freeNodes() {
            return free;
        }

        @Override
        public int freeNodes(String site) {
            return free;
        }

        @Override
        public String site(String node) {
            return "fs0";
        }

        @Override
        public List<Sharing.HeldTenant> tenants() {
            return workers.entrySet().stream().map(e -> new Sharing.HeldTenant(e.getKey(), 1, 0, e.getValue(),
                    perWorker.get(e.getKey()))).toList();
        }

        @Override
        public void end(long instance, List<String> nodes, koala.scheduler.state.JobEvent event, String reason) {
            done.add(event + " " + instance + " " + nodes);
            List<String> left = new ArrayList<>(workers.get(instance));
            left.removeAll(nodes);
            workers.put(instance, left);
        }

        @Override
        public Sharing.Granted grant(long instance, int nodes, List<String> ended, String reason,
                                     java.util.Optional<koala.api.scheduler.GrowRequest> asked, String site) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                ids.add("g" + granted++);
            }
            done.add("GRANT " + instance + " " + ids + " on the sites of " + ended
                    + asked.map(a -> " running " + a.arguments()).orElse(""));
            List<String> held = new ArrayList<>(workers.get(instance));
            held.addAll(ids);
            workers.put(instance, held);
            return new Sharing.Granted(ids, null);
        }

        @Override
        public void note(long instance, koala.scheduler.state.JobEvent event, String reason) {
            done.add(event + " " + instance);
        }
    }

    /** Instance {@code id}'s worker grow, running its own worker. */
    private static koala.api.scheduler.GrowRequest ask(long id, int nodes) {
        return new koala.api.scheduler.GrowRequest(nodes, "worker", "/bin/worker", List.of("of-" + id), Map.of(), null);
    }

    private static WorkerActivity idle(String node, int secondsAgo) {
        return new WorkerActivity(node, false, T0.minusSeconds(secondsAgo), 1.0);
    }

    private static WorkerActivity busy(String node) {
        return new WorkerActivity(node, true, null, 95.0);
    }

    private static Recorded grid() {
        Recorded grid = new Recorded();
        grid.workers.put(1L, List.of("1.1.0", "1.1.1", "1.1.2", "1.1.3", "1.1.4", "1.1.5"));
        grid.workers.put(2L, List.of("2.1.0", "2.1.1"));
        return grid;
    }

    @Test
    void idleWorkersAboveTheirShareGoToTheInstanceThatAsksLongestIdleFirst() {
        Recorded grid = grid();
        Sharing sharing = new Sharing(FAIR, grid);
        // instance 1: four idle (idle 40, 300, 10 and 120 s), two busy; instance 2: both busy
        sharing.report(1, new ShareReport(List.of(idle("1.1.0", 40), idle("1.1.1", 300), idle("1.1.2", 10),
                idle("1.1.3", 120), busy("1.1.4"), busy("1.1.5")), null), T0);
        sharing.report(2, new ShareReport(List.of(busy("2.1.0"), busy("2.1.1")), null), T0);

        Sharing.Outcome o = sharing.grow(2, ask(2, 4), T0);

        // demand: 1 uses 2, 2 uses 2 and asks 4: fair shares 2 and 6 of 8; 1 gives its 4 idle workers
        assertThat(grid.done).containsExactly(
                "TAKEN_BACK 1 [1.1.1, 1.1.3, 1.1.0, 1.1.2]",
                "GRANT 2 [g0, g1, g2, g3] on the sites of [1.1.1, 1.1.3, 1.1.0, 1.1.2] running [of-2]");
        assertThat(o.nodes()).containsExactly("g0", "g1", "g2", "g3");
        assertThat(o.reason()).isNull();
        assertThat(sharing.line(1, 2, T0)).satisfies(l -> {
            assertThat(l.share()).isEqualTo(2);
            assertThat(l.fairShare()).isEqualTo(2);
            assertThat(l.lastShrunk()).startsWith("idle 1.1.1, 1.1.3, 1.1.0, 1.1.2 taken back for 2 (fair share 2 of 8 nodes");
        });
        ShareOrders orders = sharing.report(1, new ShareReport(List.of(busy("1.1.4"), busy("1.1.5")), null), T0);
        assertThat(orders.takenBack()).containsExactly("1.1.1", "1.1.3", "1.1.0", "1.1.2");
        assertThat(orders.giveBack()).isNull();
        assertThat(orders.holds()).isEqualTo(2);
    }

    @Test
    void busyWorkersAreAskedForAndEndedAfterTheGrace() {
        Recorded grid = grid();
        Sharing sharing = new Sharing(FAIR, grid);
        sharing.report(1, new ShareReport(List.of(busy("1.1.0"), busy("1.1.1"), busy("1.1.2"), busy("1.1.3"),
                busy("1.1.4"), busy("1.1.5")), null), T0);
        sharing.report(2, new ShareReport(List.of(busy("2.1.0"), busy("2.1.1")), null), T0);

        Sharing.Outcome o = sharing.grow(2, ask(2, 4), T0);

        // both use all they hold: demands 6 and 6, fair shares 4 and 4; 1 is asked for 2, 2 promised 2
        assertThat(o.nodes()).isEmpty();
        assertThat(o.reason()).isEqualTo("2 more nodes being taken back for it, by 10:00:15; "
                + "2 of 4 refused: its fair share 4 of 8 nodes (demand 6, weight 1) leaves room for 2");
        assertThat(grid.done).containsExactly("ASKED_TO_SHRINK 1");
        ShareOrders orders = sharing.report(1, new ShareReport(List.of(busy("1.1.0"), busy("1.1.1"), busy("1.1.2"),
                busy("1.1.3"), busy("1.1.4"), busy("1.1.5")), null), T0.plusSeconds(1));
        assertThat(orders.giveBack().workers()).isEqualTo(2);
        assertThat(orders.giveBack().by()).isEqualTo(T0.plusSeconds(15));

        // the framework gives back one of them at 5 s: its node comes free and goes to instance 2
        grid.end(1, List.of("1.1.0"), koala.scheduler.state.JobEvent.SHRANK, "given back");
        grid.free = 1;
        grid.done.clear();
        sharing.tick(T0.plus(Duration.ofSeconds(5)));
        assertThat(grid.done).containsExactly("GRANT 2 [g0] on the sites of []");

        // the grace ends at 15 s with one still owed: KOALA ends the busy worker with the least CPU,
        // ties to the youngest, and the promise is kept on its site
        grid.free = 0;
        grid.done.clear();
        sharing.tick(T0.plus(Duration.ofSeconds(20)));
        assertThat(grid.done).containsExactly("ENDED_AFTER_GRACE 1 [1.1.5]", "GRANT 2 [g1] on the sites of [1.1.5]");
        assertThat(grid.workers.get(1L)).hasSize(4);
        assertThat(grid.workers.get(2L)).hasSize(4);
    }

    /**
     * Workers of 4 cores count 4 of the grid's nodes. A grid of 32 cores and 128G, none free: instance 1
     * runs 24 workers of one core, instance 2 two of 4 cores and asks for 2 more. Demands 24 and 16 of 32
     * nodes: fair shares 16 and 16, so instance 1 is asked for 8 of its workers, and once they are ended
     * instance 2 gets its 2.
     */
    @Test
    void aWorkerOfFourCoresCountsFourNodes() {
        Recorded grid = new Recorded();
        grid.total = new koala.placement.Resources(32, 128 * 1024, 0);
        List<String> ones = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            ones.add("1.1." + i);
        }
        grid.workers.put(1L, ones);
        grid.workers.put(2L, List.of("2.1.0", "2.1.1"));
        grid.perWorker.put(2L, new koala.placement.Resources(4, 0, 0));
        Sharing sharing = new Sharing(FAIR, grid);
        sharing.report(1, new ShareReport(ones.stream().map(SharingTest::busy).toList(), null), T0);
        sharing.report(2, new ShareReport(List.of(busy("2.1.0"), busy("2.1.1")), null), T0);

        Sharing.Outcome o = sharing.grow(2, new koala.api.scheduler.GrowRequest(2, "worker", "/bin/worker",
                List.of("of-2"), Map.of(), null, null, null, null, null, 4, null, null), T0);

        assertThat(o.nodes()).isEmpty();
        assertThat(o.reason()).isEqualTo("2 more nodes being taken back for it, by 10:00:15");
        assertThat(sharing.report(1, new ShareReport(ones.stream().map(SharingTest::busy).toList(), null),
                T0.plusSeconds(1)).giveBack().workers()).isEqualTo(8);
        ShareOrders two = sharing.report(2, new ShareReport(List.of(busy("2.1.0"), busy("2.1.1")), null), T0.plusSeconds(1));
        assertThat(two.share()).isEqualTo(4);
        assertThat(sharing.line(2, 2, T0.plusSeconds(1)).fairShare()).isEqualTo(4);

        grid.done.clear();
        sharing.tick(T0.plusSeconds(15));
        assertThat(grid.done).containsExactly("ENDED_AFTER_GRACE 1 [1.1.23, 1.1.22, 1.1.21, 1.1.20, 1.1.19, 1.1.18, "
                + "1.1.17, 1.1.16]", "GRANT 2 [g0, g1] on the sites of [1.1.23, 1.1.22, 1.1.21, 1.1.20, 1.1.19, 1.1.18, "
                + "1.1.17, 1.1.16]");
    }

    /**
     * The pace of taking back busy workers at the defaults (grace 15 s, a round every 15 s, at most 10% of
     * the 8 nodes, so 1, taken back per round): instance 1's workers all stay busy and its framework gives
     * none back; instance 2, its two busy, asks for one worker more a second after each grant (as a
     * runner whose work waits does). The worker asked back at 10:00:01 is owed by 10:00:16, but the
     * grace is looked at by the rounds (10:00:00, :15, :30, ...): it is ended, and its node granted, at
     * 10:00:30; the next, asked at 10:00:31, at 10:01:00. One node every 30 s, not every 15 s, until
     * instance 2 reaches its fair share (4 of 8) and its third ask is refused.
     */
    @Test
    void busyWorkersAreTakenBackAtTheFirstRoundAfterTheirGraceSoOneEvery30sAtTheDefaults() {
        Recorded grid = grid();
        Sharing sharing = new Sharing(ArbitrationSettings.of(ShareRule.FAIR), grid);
        List<Long> grantedAt = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        long askAt = 1;
        for (long s = 0; s <= 100; s++) {
            Instant now = T0.plusSeconds(s);
            for (long id : List.of(1L, 2L)) {
                sharing.report(id, new ShareReport(grid.workers.get(id).stream().map(SharingTest::busy).toList(),
                        null), now);
            }
            sharing.tick(now);
            if (grid.done.removeIf(d -> d.startsWith("GRANT 2"))) {
                grantedAt.add(s);
                askAt = s + 1;
            }
            if (s == askAt) {
                Sharing.Outcome o = sharing.grow(2, ask(2, 1), now);
                if (o.nodes().isEmpty() && !o.reason().contains("being taken back")) {
                    refused.add(s + ": " + o.reason());
                }
            }
        }
        assertThat(grantedAt).containsExactly(30L, 60L);
        assertThat(refused).containsExactly("61: 1 of 1 refused: its fair share 4 of 8 nodes (demand 5, weight 1) "
                + "is reached (holds 4)");
    }

    @Test
    void aRestartedSchedulerGoesOnFromTheKeptBookAndEndsWhatIsOwedAfterTheGrace() throws Exception {
        Recorded grid = grid();
        Sharing before = new Sharing(FAIR, grid);
        List<String> kept = new ArrayList<>();
        before.keepBook(koala.arbitration.TakeBackBook.EMPTY, b -> kept.add(koala.common.json.Json.write(b)));
        List<WorkerActivity> allBusy = List.of(busy("1.1.0"), busy("1.1.1"), busy("1.1.2"), busy("1.1.3"),
                busy("1.1.4"), busy("1.1.5"));
        before.report(1, new ShareReport(allBusy, null), T0);
        before.report(2, new ShareReport(List.of(busy("2.1.0"), busy("2.1.1")), null), T0);
        before.grow(2, ask(2, 4), T0);
        assertThat(kept).isNotEmpty();

        // the scheduler dies; a new one reads the book back and hears from the runners again
        Sharing after = new Sharing(FAIR, grid);
        after.keepBook(koala.common.json.Json.mapper().readValue(kept.get(kept.size() - 1),
                koala.arbitration.TakeBackBook.class), b -> { });
        ShareOrders orders = after.report(1, new ShareReport(allBusy, null), T0.plusSeconds(3));
        after.report(2, new ShareReport(List.of(busy("2.1.0"), busy("2.1.1")), null), T0.plusSeconds(3));
        assertThat(orders.giveBack().workers()).isEqualTo(2);
        grid.done.clear();
        after.tick(T0.plusSeconds(16));
        assertThat(grid.done).containsExactly("ENDED_AFTER_GRACE 1 [1.1.5, 1.1.4]",
                "GRANT 2 [g0, g1] on the sites of [1.1.5, 1.1.4]");
    }

    @Test
    void underFcfsNothingIsTakenBackAndGrowsAreNotArbitrated() {
        Recorded grid = grid();
        Sharing sharing = new Sharing(ArbitrationSettings.DEFAULTS, grid);
        assertThat(sharing.arbitrates()).isFalse();
        sharing.report(1, new ShareReport(List.of(idle("1.1.0", 40)), null), T0);
        sharing.tick(T0);
        assertThat(grid.done).isEmpty();
        assertThat(sharing.line(1, 6, T0).share()).isNull();
        assertThat(sharing.report(1, new ShareReport(List.of(), null), T0).arbitrated()).isFalse();
    }
}
