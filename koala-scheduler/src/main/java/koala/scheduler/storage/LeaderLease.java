package koala.scheduler.storage;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which of the schedulers that share a store leads: a lease that the leader renews (every second),
 * that another takes over once it has passed, with a fencing epoch one higher each time it changes
 * hands ({@link PostgresLease}). A store only one scheduler can open (the H2 file, which it locks)
 * needs none: {@link #ALONE}.
 */
public interface LeaderLease extends AutoCloseable {
    /** Who leads: its name (a scheduler's host and process), where clients reach it, its epoch, and whether its lease holds now. */
    record Holder(String name, String address, long epoch, boolean live) {
    }

    /** Takes the lease if nobody holds it now (the last holder's passed); the new epoch, or empty when another leads. */
    OptionalLong acquire(String name, String address);

    /** Renews the lease of {@code epoch} for another term; false when it passed or another took it over. */
    boolean renew(long epoch);

    /** The lease as it is now; empty before any scheduler ever led. */
    Optional<Holder> holder();

    /** How the last lease {@link #acquire} took was free: "the lease passed", or why the leader was gone before that. */
    default String howTaken() {
        return "the lease was free";
    }

    /** Lets the lease of {@code epoch} go at once (a scheduler stopping cleanly): a standby need not wait for it to pass. */
    void resign(long epoch);

    @Override
    void close();

    /** A store of one scheduler: it always leads, at epoch 1. */
    LeaderLease ALONE = new LeaderLease() {
        @Override
        public OptionalLong acquire(String name, String address) {
            return OptionalLong.of(1);
        }

        @Override
        public boolean renew(long epoch) {
            return true;
        }

        @Override
        public Optional<Holder> holder() {
            return Optional.empty();
        }

        @Override
        public void resign(long epoch) {
        }

        @Override
        public void close() {
        }
    };
}
