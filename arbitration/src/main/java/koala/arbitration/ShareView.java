package koala.arbitration;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import koala.provisioning.NaturalOrder;

/**
 * The snapshot as the policies read it: each instance's standing once the book's asks and promises
 * are counted. Instances are in id order ({@link NaturalOrder}), so that every tie a policy breaks
 * by walking them is broken by id.
 *
 * @param capacity  the nodes shared out ({@link GridShare#capacity()})
 * @param standings one per instance, in id order
 */
record ShareView(int capacity, List<Standing> standings, ArbitrationSettings settings) {

    /**
     * One instance's standing, in the grid's nodes (an instance's worker takes {@link Tenant#size()} of them).
     *
     * @param alloc  the worker nodes it holds, less those it has been asked to give back
     * @param owed   nodes taken back for it, not yet granted
     * @param demand nodes it uses or wants: busy and starting workers, owed nodes and what it asks, and
     *               with {@link ArbitrationSettings#queuedDemand()} what its queued work would use
     * @param floor  nodes never taken from it now: its minimum share, or the nodes moved to it
     *               within the stabilization window if more
     * @param gave   when it last gave nodes back within the stabilization window; null if it did not
     * @param asked  the deadline of the ask it is to give nodes back by, while one runs; null if none
     */
    record Standing(Tenant tenant, int alloc, int owed, int demand, int floor, Instant gave, Instant asked) {
        String id() {
            return tenant.id();
        }

        /** Nodes that may be taken from it: none while it is owed nodes itself, else what it holds above its floor. */
        int takeable() {
            return owed > 0 ? 0 : Math.max(0, alloc - floor);
        }

        /** Nodes it will hold once its asks and promises are settled. */
        int holds() {
            return alloc + owed;
        }
    }

    static ShareView of(GridShare grid, TakeBackBook book, ArbitrationSettings settings, Instant now) {
        List<Standing> standings = grid.tenants().stream()
                .sorted(Comparator.comparing(Tenant::id, NaturalOrder.IDS))
                .map(t -> standing(t, book, settings, now))
                .toList();
        return new ShareView(grid.capacity(), standings, settings);
    }

    private static Standing standing(Tenant t, TakeBackBook book, ArbitrationSettings settings, Instant now) {
        int alloc = book.askedSize(t.id(), t.heldNodes());
        int owed = book.owedTo(t.id());
        int floor = Math.max(t.nodesOf(t.minShare()), Math.min(t.heldNodes(), book.moved(t.id(), now, settings.window())));
        int queued = settings.queuedDemand() ? t.queued() : 0;
        return new Standing(t, alloc, owed, t.nodesOf(t.using() + t.asking() + queued) + owed, floor,
                book.gaveAfter(t.id(), now, settings.window()), book.askedUntil(t.id()));
    }

    Optional<Standing> standing(String id) {
        return standings.stream().filter(s -> s.id().equals(id)).findFirst();
    }
}
