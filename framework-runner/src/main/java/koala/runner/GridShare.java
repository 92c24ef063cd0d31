package koala.runner;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import koala.api.runner.RunnerMessages;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;

/**
 * The instance's part in sharing a full grid (docs/sharing.md): what the runner reports of its
 * workers each tick, and what the grid's arbitration answered — the workers it asks back, those it
 * took. The framework chooses which workers to give back, never more than asked; a policy that keeps
 * its initial workers asks for the taken ones again only when it needs them ({@link #floorTaken}).
 * Pure bookkeeping: the runner sends the report and gives the nodes back. Lives on the loop.
 */
final class GridShare {
    /** What the grid's arbitration said at the last report; null before the first (or from a scheduler without it). */
    private ShareOrders orders;
    /** Workers given back at the grid's request since the last report (the scheduler's count lags by a report). */
    private int givenBack;
    /** The figure the framework last reported (a slowdown), passed on to the scheduler; null for none. */
    private Double figure;
    /** The share of its work the framework last said it rejected lately, passed on to the scheduler; null for none. */
    private Double rejectRate;
    /** Workers the grid's arbitration took that the floor keeps: asked for again one at a time, when needed. */
    private int floorTaken;
    private final Set<String> takenSeen = new HashSet<>();

    /** The report of the running workers' activity, with the framework's figure. */
    ShareReport report(Entities entities) {
        return new ShareReport(entities.role(Entities.WORKER).stream().filter(Entity::running)
                .filter(e -> !taken(e.node()))
                .map(e -> new ShareReport.WorkerActivity(e.node(), e.idleSince() == null, e.idleSince(),
                        e.cpuPercent())).toList(), figure, rejectRate);
    }

    /**
     * The arbitration's answer to a report; {@code keepsFloor}: the policy keeps its initial workers,
     * so each worker taken back newly is one to ask for again.
     */
    void answered(ShareOrders answer, boolean keepsFloor, Events events, Instant now) {
        orders = answer;
        givenBack = 0;
        for (String node : answer.takenBack()) {
            if (takenSeen.add(node) && keepsFloor) {
                floorTaken++;
                events.add(now, EventKind.LOST, "worker " + node + " taken back by the grid's arbitration ("
                        + answer.policy() + "); asked for again only when all workers are busy",
                        Map.of("node", node, "role", Entities.WORKER));
            }
        }
    }

    void figure(double slowdown, Double rejectRate) {
        this.figure = slowdown;
        this.rejectRate = rejectRate;
    }

    /** What the grid's arbitration asks this instance to give back now; null for nothing. */
    ShareOrders.GiveBack giveBackAsk() {
        if (orders == null || orders.giveBack() == null || orders.giveBack().workers() - givenBack <= 0) {
            return null;
        }
        ShareOrders.GiveBack ask = orders.giveBack();
        return new ShareOrders.GiveBack(ask.workers() - givenBack, ask.by(), ask.reason());
    }

    /**
     * The framework gives back {@code nodes} (workers of the instance) at the grid's request: as many
     * as asked, no more. The result names those to release; the runner releases them.
     */
    RunnerMessages.ShrinkResult giveBack(List<String> nodes, boolean keepsFloor) {
        ShareOrders.GiveBack ask = giveBackAsk();
        int room = ask == null ? 0 : ask.workers();
        List<RunnerMessages.Refusal> kept = new java.util.ArrayList<>(nodes.stream().distinct().filter(this::taken)
                .map(n -> new RunnerMessages.Refusal(n, "taken back already by the grid's arbitration ("
                        + orders.policy() + ")")).toList());
        List<String> offered = nodes.stream().distinct().filter(n -> !taken(n)).toList();
        List<String> given = offered.stream().limit(room).toList();
        offered.stream().skip(room).forEach(n -> kept.add(new RunnerMessages.Refusal(n,
                ask == null ? "nothing is asked back now" : "only " + room + " asked back")));
        givenBack += given.size();
        if (keepsFloor) {
            floorTaken += given.size();
        }
        return new RunnerMessages.ShrinkResult(given, kept, ask == null ? "nothing is asked back now" : ask.reason());
    }

    /**
     * Whether KOALA ended {@code node} for the arbitration: it is no worker of the framework's any more,
     * though the scheduler lists it until its pilot is gone.
     */
    boolean taken(String node) {
        return takenSeen.contains(node);
    }

    /** Of the {@code missing} initial workers, how many the arbitration took (and are asked for again only when needed). */
    int floorTaken(int missing) {
        floorTaken = Math.max(0, Math.min(floorTaken, missing));
        return floorTaken;
    }

    /** One taken worker was asked for again and granted. */
    void askedAgain() {
        floorTaken = Math.max(0, floorTaken - 1);
    }
}
