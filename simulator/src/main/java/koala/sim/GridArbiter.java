package koala.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.arbitration.Arbiter;
import koala.arbitration.Arbitration;
import koala.arbitration.GridShare;
import koala.arbitration.ShareDecision;
import koala.arbitration.TakeBackBook;
import koala.arbitration.Tenant;

/**
 * The scheduler's side of a grid shared by several framework instances: it takes the snapshot the
 * scheduler would — the grid's idle nodes as the KIS reports them, each instance's workers as its
 * runner sees them, its weight and minimum share, the figure it reports — asks the arbitration
 * code ({@link Arbiter}, the scheduler's own) and carries out its decisions in their order. It
 * decides nothing itself. It asks on every grow of an instance, after ending workers, and every
 * round period.
 */
final class GridArbiter {
    private final Arbiter arbiter;
    private final SimGrid grid;
    private final EventQueue events;
    private final Map<String, Instance> instances = new LinkedHashMap<>();
    private TakeBackBook book = TakeBackBook.EMPTY;
    private final Counts counts = new Counts();

    /** What the arbiter decided over a run, in nodes. */
    static final class Counts {
        long asked;
        long grantedFree;
        long grantedTakenBack;
        long idleTaken;
        long askedToShrink;
        long ended;
        long refused;
        long grantedShort;
    }

    GridArbiter(Arbiter arbiter, SimGrid grid, EventQueue events) {
        this.arbiter = arbiter;
        this.grid = grid;
        this.events = events;
    }

    void add(Instance instance) {
        if (instances.putIfAbsent(instance.name(), instance) != null) {
            throw new IllegalArgumentException("two instances named " + instance.name());
        }
    }

    void start() {
        events.after(arbiter.settings().roundPeriod(), this::round);
    }

    /** {@code asker} asks for {@code nodes}: the nodes it gets now (held from now on); more may be owed to it. */
    List<SimGrid.Node> grow(Instance asker, int nodes) {
        counts.asked += nodes;
        return carryOut(decide(asker, nodes), asker);
    }

    private void round() {
        carryOut(decide(null, 0), null);
        events.after(arbiter.settings().roundPeriod(), this::round);
    }

    private Arbitration decide(Instance asker, int nodes) {
        List<Tenant> tenants = instances.values().stream().map(i -> i.tenant(i == asker ? nodes : 0)).toList();
        return arbiter.decide(new GridShare(grid.idleNodes(), tenants), book, events.instant());
    }

    private List<SimGrid.Node> carryOut(Arbitration a, Instance asker) {
        book = a.book();
        List<SimGrid.Node> forAsker = new ArrayList<>();
        for (ShareDecision d : a.decisions()) {
            Instance i = instances.get(d.tenant());
            if (d instanceof ShareDecision.ReleaseIdle r) {
                counts.idleTaken += r.workers().size();
                i.releaseIdle(r.workers());
            } else if (d instanceof ShareDecision.EndWorkers e) {
                counts.ended += e.workers().size();
                i.endWorkers(e.workers());
            } else if (d instanceof ShareDecision.AskShrink s) {
                counts.askedToShrink += s.nodes();
                i.askShrink(s.nodes(), s.deadline());
            } else if (d instanceof ShareDecision.Grant g) {
                List<SimGrid.Node> nodes = grid.grant(g.nodes());
                count(g, nodes.size());
                if (i == asker) {
                    forAsker.addAll(nodes);
                } else {
                    i.deliver(nodes);
                }
            } else if (d instanceof ShareDecision.Refuse r) {
                counts.refused += r.nodes();
            }
        }
        instances.values().forEach(i -> i.owed(book.owedTo(i.name())));
        return forAsker;
    }

    private void count(ShareDecision.Grant g, int got) {
        if (g.reason().kind() == koala.arbitration.ShareReason.Kind.TAKEN_BACK) {
            counts.grantedTakenBack += got;
        } else {
            counts.grantedFree += got;
        }
        // an idle worker named for taking back may have turned busy before it was ended: fewer nodes came free
        counts.grantedShort += g.nodes() - got;
    }

    Counts counts() {
        return counts;
    }
}
