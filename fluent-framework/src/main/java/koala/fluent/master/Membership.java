package koala.fluent.master;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import koala.common.failure.Gone;
import koala.common.failure.InvalidField;
import koala.fluent.Application;
import koala.fluent.FluentWorker;
import koala.fluent.FrameworkState;
import koala.fluent.ResizeRequest;
import koala.fluent.Resumed;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.MasterEventKind;
import koala.provisioning.NaturalOrder;

/**
 * Which workers are the master's: a DeviceManager's hello makes its worker join (or report in
 * again), and the runner takes workers back — idle ones released after t_idle, or given back when
 * the grid's arbitration asks, word counts yielding theirs with suspension on — or no longer has one,
 * which is lost with what ran on it. A worker offered to the runner is out of the placement until it
 * answers (those it keeps come back, idle from then); one that left stays gone, so that a late hello
 * of its DeviceManager does not bring it back. A join may start waiting work ({@link AppLifecycle})
 * and complete the grow a job waits for ({@link JobLine}).
 */
final class Membership {
    private final MasterContext master;
    private final AppLifecycle apps;
    private final Suspending suspending;
    private final JobLine jobs;
    /** Workers that left: a late hello of theirs must not bring them back. */
    private final Set<String> gone;
    /** Workers whose DeviceManager has said hello to this master: they hold its key, a move may call them. */
    private final Set<String> heard = new HashSet<>();
    /** Whether a release or a give-back is at the runner: its workers are out of the placement meanwhile. */
    private boolean releasing;
    private boolean givingBack;

    Membership(MasterContext master, AppLifecycle apps, Suspending suspending, JobLine jobs, Set<String> gone) {
        this.master = master;
        this.apps = apps;
        this.suspending = suspending;
        this.jobs = jobs;
        this.gone = new HashSet<>(gone);
    }

    /** A DeviceManager reports in: its worker joins, and may start waiting SWCs or complete a pending grow. */
    void hello(DeviceHello hello) {
        if (hello.node() == null || hello.url() == null) {
            throw new InvalidField(hello.node() == null ? "node" : "url", "missing");
        }
        if (hello.slots() != null && hello.slots() < 1) {
            throw new InvalidField("slots", hello.slots() + ": a worker has at least 1 slot");
        }
        if (gone.contains(hello.node())) {
            throw new Gone("worker " + hello.node() + " has left the instance", "node");
        }
        heard.add(hello.node());
        if (master.urls().containsKey(hello.node())) {
            again(hello);
            return;
        }
        FrameworkState state = master.state();
        int slots = hello.slots() == null ? state.settings().slotsPerWorker() : hello.slots();
        master.journal().append(new JournalEntry.Joined(master.now(), hello.node(), hello.url(), slots));
        master.urls().put(hello.node(), hello.url());
        FrameworkState.Started started = state.join(hello.node(), slots, master.now());
        master.events().add(MasterEventKind.JOINED, "worker " + hello.node() + " joined (" + slots + " slots) at "
                + hello.url(), Map.of("node", hello.node(), "slots", slots, "url", hello.url()));
        apps.again(started);
        jobs.joinedForGrow();
        master.provisioning().reportActivity(master.line(), state.workers());
    }

    /**
     * A known worker's hello: a DeviceManager's regular one (quiet), or its first to this master
     * after a restart, with the applications it still runs or has not reported yet.
     */
    private void again(DeviceHello hello) {
        if (!hello.url().equals(master.urls().put(hello.node(), hello.url()))) {
            master.events().add(MasterEventKind.REJOINED, "worker " + hello.node() + " reported in again at "
                    + hello.url(), Map.of("node", hello.node(), "url", hello.url()));
        }
        if (hello.running() == null) {
            return;
        }
        apps.confirm(hello);
    }

    /**
     * What the grid's arbitration asks back, once no give-back is at the runner: the workers chosen
     * ({@link Provisioning#giveBack}) leave the placement at once, and those the runner does not take
     * come back.
     */
    void giveBack() {
        if (!givingBack) {
            givingBack = true;
            Map<String, Integer> slots = new LinkedHashMap<>();
            master.provisioning().giveBack(master.line(), master.state(), this::yieldWorkers,
                    idle -> slots.putAll(leave(idle)), (offered, taken) -> {
                        givingBack = false;
                        settle(offered, taken, slots);
                    });
        }
    }

    /** Workers idle long enough released at {@code now}, once no release is at the runner. */
    void release(Instant now) {
        if (!jobs.waitingForGrow() && !releasing) {
            // while a job waits for its grow, the idle workers are the ones it counted on: none goes
            ResizeRequest down = master.provisioning().releaseAsk(master.state(), now);
            if (down != null) {
                Map<String, Integer> slots = leave(down.release());
                releasing = true;
                master.provisioning().release(master.line(), down, released -> {
                    releasing = false;
                    settle(down.release(), released, slots);
                });
            }
        }
    }

    /** Each sample period, the runner's status: workers it no longer has are lost. */
    void sample(Instant now) {
        master.provisioning().sample(master.line(), master.state(), now, master::now,
                () -> Set.copyOf(master.urls().keySet()), lost -> lost.forEach(this::lost));
    }

    /** Whether a release or a give-back is at the runner: a snapshot waits, its workers out of the state, not gone. */
    boolean offering() {
        return releasing || givingBack;
    }

    Set<String> heard() {
        return heard;
    }

    Set<String> gone() {
        return gone;
    }

    /**
     * Asked by the grid to give back {@code wanted} workers with none idle: workers whose every
     * application is a running word count yield them — their components move to free slots on the
     * other workers — fewest slots in use first, then by id, as the state allows. Returns those that
     * yielded, idle now, to be given back once the moves have come back.
     */
    private Provisioning.Yield yieldWorkers(int wanted) {
        List<String> yielded = new ArrayList<>();
        List<CompletableFuture<Void>> moving = new ArrayList<>();
        List<FluentWorker> busy = master.state().workers().stream().filter(w -> !w.isIdle())
                .sorted(Comparator.comparingInt(FluentWorker::usedSlots)
                        .thenComparing(FluentWorker::id, NaturalOrder.IDS))
                .toList();
        for (FluentWorker w : busy) {
            if (yielded.size() == wanted) {
                break;
            }
            Instant now = master.now();
            Optional<List<Resumed>> moved = master.state().yieldWorker(w.id(), now);
            if (moved.isEmpty()) {
                continue;
            }
            master.journal().append(new JournalEntry.Yielded(now, w.id()));
            master.events().add(MasterEventKind.YIELDED, "worker " + w.id() + " yields "
                    + moved.get().stream().map(Resumed::appId).toList() + " to be given back",
                    Map.of("node", w.id()));
            moved.get().forEach(r -> moving.add(suspending.resume(r)));
            yielded.add(w.id());
        }
        return new Provisioning.Yield(yielded, CompletableFuture.allOf(moving.toArray(CompletableFuture[]::new)));
    }

    /**
     * Idle workers about to be offered to the runner leave the placement now, so that no application
     * is placed on a node the runner is giving back; returns each one's slots, to take back those it keeps.
     */
    private Map<String, Integer> leave(List<String> nodes) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        Instant now = master.now();
        for (String node : nodes) {
            master.state().workers().stream().filter(w -> w.id().equals(node)).findFirst().ifPresent(w -> {
                slots.put(node, w.slots());
                master.state().removeWorker(node, now);
            });
        }
        return slots;
    }

    /** The runner answered an offer of {@code offered}: those it {@code took} are gone, the others are workers again. */
    private void settle(List<String> offered, List<String> took, Map<String, Integer> slots) {
        Instant now = master.now();
        for (String node : offered) {
            if (took.contains(node)) {
                left(node);
            } else if (slots.containsKey(node) && master.urls().containsKey(node)) {
                apps.again(master.state().join(node, slots.get(node), now));
            }
        }
        jobs.joinedForGrow();
    }

    private void left(String node) {
        master.journal().append(new JournalEntry.Left(master.now(), node));
        master.urls().remove(node);
        gone.add(node);
    }

    /**
     * A worker the runner no longer has: it leaves the registry first (journalled first, so a
     * replay loses it the same way), then what ran on it fails, and waiting word counts start on the
     * workers that remain — never on the one gone.
     */
    private void lost(String node) {
        if (master.state().workers().stream().noneMatch(w -> w.id().equals(node))) {
            return;
        }
        left(node);
        FrameworkState.Lost lost = master.state().lose(node, master.now());
        master.moveBook().lost(lost.failed().size());
        master.events().add(MasterEventKind.LEFT, "worker " + node + " left: its runner no longer has it",
                Map.of("node", node));
        for (Application app : lost.failed()) {
            master.book().find(app.id()).filter(e -> e.state() == AppBook.State.RUNNING).ifPresent(e -> {
                apps.ended(e, "worker " + node + " was lost");
                apps.orchestratorFreed(e);
            });
        }
        lost.resumed().forEach(suspending::resume);
        lost.started().forEach(apps::startFromQueue);
    }
}
