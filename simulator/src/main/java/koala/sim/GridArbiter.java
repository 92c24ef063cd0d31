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
            d.carriedOutBy(new Carrying(instances.get(d.tenant()), asker, forAsker));
        }
        instances.values().forEach(i -> i.owed(book.owedTo(i.name())));
        return forAsker;
    }

    /**
     * One decision carried out on its instance, a method per kind of the sealed {@link ShareDecision}
     * (as the scheduler's {@code Sharing} does), so that a new kind does not compile until the
     * simulator says what it does with it. A promise needs nothing now: what is owed comes from the
     * book once the round is carried out.
     */
    private final class Carrying implements ShareDecision.CarryOut {
        private final Instance instance;
        private final Instance asker;
        private final List<SimGrid.Node> forAsker;

        Carrying(Instance instance, Instance asker, List<SimGrid.Node> forAsker) {
            this.instance = instance;
            this.asker = asker;
            this.forAsker = forAsker;
        }

        @Override
        public void releaseIdle(ShareDecision.ReleaseIdle d) {
            counts.idleTaken += d.workers().size();
            instance.releaseIdle(d.workers());
        }

        @Override
        public void endWorkers(ShareDecision.EndWorkers d) {
            counts.ended += d.workers().size();
            instance.endWorkers(d.workers());
        }

        @Override
        public void askShrink(ShareDecision.AskShrink d) {
            counts.askedToShrink += d.nodes();
            instance.askShrink(d.nodes(), d.deadline());
        }

        @Override
        public void grant(ShareDecision.Grant d) {
            List<SimGrid.Node> nodes = grid.grant(d.nodes());
            count(d, nodes.size());
            if (instance == asker) {
                forAsker.addAll(nodes);
            } else {
                instance.deliver(nodes);
            }
        }

        @Override
        public void promised(ShareDecision.Promised d) {
        }

        @Override
        public void refuse(ShareDecision.Refuse d) {
            counts.refused += d.nodes();
        }
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
