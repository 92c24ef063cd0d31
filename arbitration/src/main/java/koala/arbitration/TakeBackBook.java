package koala.arbitration;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the arbiter must remember between decisions, kept by the caller and handed back with the
 * next snapshot: it is returned, updated, with every {@link Arbitration}. Nothing in it is the
 * grid's state (that comes with each snapshot); only the arbiter's own promises and asks. The
 * scheduler may keep it in memory: after a restart an empty book only forgets asks in flight.
 *
 * @param owed     nodes taken back for an instance and not yet granted to it
 * @param asks     instances asked to come down to a size by a deadline
 * @param moves    nodes granted to an instance from nodes taken back: they are not taken again
 *                 within the stabilization window
 * @param takings  nodes taken back, from whom, when: the bound per round counts those of the last
 *                 round period; an instance that gave within the stabilization window takes nothing
 *                 back within it
 * @param starved  since when an instance has been refused below its share, for the patience rule
 */
public record TakeBackBook(List<Owed> owed, List<Ask> asks, List<Move> moves, List<Taking> takings,
        List<Starved> starved) {
    public static final TakeBackBook EMPTY = new TakeBackBook(List.of(), List.of(), List.of(), List.of(), List.of());

    /** {@code nodes} taken back for {@code tenant} since {@code since}; refused if not free by {@code expires}. */
    public record Owed(String tenant, int nodes, Instant since, Instant expires) {
    }

    /**
     * {@code donor} gives {@code nodes} for {@code forTenant}: it must be down to {@code toSize}
     * worker nodes by {@code deadline}, else KOALA ends the workers still owed.
     */
    public record Ask(String donor, String forTenant, int nodes, int toSize, Instant at, Instant deadline) {
    }

    /** {@code nodes} nodes taken back were granted to {@code tenant} at {@code at}. */
    public record Move(String tenant, int nodes, Instant at) {
    }

    /** {@code nodes} nodes were taken back from {@code donor} at {@code at}. */
    public record Taking(String donor, int nodes, Instant at) {
    }

    /** {@code tenant} has been refused nodes below its share since {@code since}, and not fully granted since. */
    public record Starved(String tenant, Instant since) {
    }

    public TakeBackBook {
        starved = List.copyOf(starved);
        owed = List.copyOf(owed);
        asks = List.copyOf(asks);
        moves = List.copyOf(moves);
        takings = List.copyOf(takings);
    }

    /** Nodes owed to {@code tenant}. */
    public int owedTo(String tenant) {
        return owed.stream().filter(o -> o.tenant().equals(tenant)).mapToInt(Owed::nodes).sum();
    }

    /** Nodes owed to all instances: free nodes reserved for them. */
    public int owedTotal() {
        return owed.stream().mapToInt(Owed::nodes).sum();
    }

    /** The size {@code donor} is asked down to (the lowest of its asks), or {@code held} when it is asked nothing. */
    int askedSize(String donor, int held) {
        return asks.stream().filter(a -> a.donor().equals(donor)).mapToInt(Ask::toSize).reduce(held, Math::min);
    }

    /** Nodes moved to {@code tenant} after {@code now − window}: they stay. */
    int moved(String tenant, Instant now, Duration window) {
        Instant after = now.minus(window);
        return moves.stream().filter(m -> m.tenant().equals(tenant) && m.at().isAfter(after)).mapToInt(Move::nodes)
                .sum();
    }

    /** The latest deadline of the asks {@code donor} is to give nodes back by; null when it is asked nothing. */
    Instant askedUntil(String donor) {
        return asks.stream().filter(a -> a.donor().equals(donor)).map(Ask::deadline).max(Instant::compareTo).orElse(null);
    }

    /** When nodes were last taken back from {@code donor} after {@code now − window}; null if not. */
    Instant gaveAfter(String donor, Instant now, Duration window) {
        Instant after = now.minus(window);
        return takings.stream().filter(t -> t.donor().equals(donor) && t.at().isAfter(after)).map(Taking::at)
                .max(Instant::compareTo).orElse(null);
    }

    /** Nodes taken back from {@code donor} after {@code now − period}. */
    int takenFrom(String donor, Instant now, Duration period) {
        Instant after = now.minus(period);
        return takings.stream().filter(t -> t.donor().equals(donor) && t.at().isAfter(after)).mapToInt(Taking::nodes)
                .sum();
    }

    /** Nodes taken back after {@code now − period}. */
    int takenWithin(Instant now, Duration period) {
        Instant after = now.minus(period);
        return takings.stream().filter(t -> t.at().isAfter(after)).mapToInt(Taking::nodes).sum();
    }

    /** Without moves and takings older than the window and the round period: they no longer matter. */
    TakeBackBook pruned(Instant now, ArbitrationSettings settings) {
        Objects.requireNonNull(now, "now");
        Instant moveAfter = now.minus(settings.window());
        Duration keep = settings.window().compareTo(settings.roundPeriod()) > 0 ? settings.window() : settings.roundPeriod();
        if (settings.maxPerHour() > 0 && keep.compareTo(Duration.ofHours(1)) < 0) {
            keep = Duration.ofHours(1);
        }
        Instant takeAfter = now.minus(keep);
        return new TakeBackBook(owed, asks, moves.stream().filter(m -> m.at().isAfter(moveAfter)).toList(),
                takings.stream().filter(t -> t.at().isAfter(takeAfter)).toList(), starved);
    }
}
