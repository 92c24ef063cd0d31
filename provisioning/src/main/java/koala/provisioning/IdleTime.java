package koala.provisioning;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code t_idle}: how long a worker (or an orchestrator node) must have been idle before it is given
 * back. Either a fixed duration ({@code tIdle = 180}) or, as in the paper, a factor of the current
 * grow-overhead estimate, {@code t_idle = n · O_grow} ({@code tIdleFactor = 6}): giving a node back
 * is only worth it when it has been idle several times as long as getting one again would take.
 *
 * <p>Values are not range-checked here, so that a bad one can be reported with the others by
 * {@link SettingsResolver#check}; {@link ProvisioningSettings} refuses them.
 */
public sealed interface IdleTime permits IdleTime.Fixed, IdleTime.Factor {

    /** The idle time in force when the grow-overhead estimate is {@code growOverhead}. */
    Duration after(Duration growOverhead);

    /** "180 s" or "6 × O_grow". */
    String describe();

    static IdleTime fixed(Duration duration) {
        return new Fixed(duration);
    }

    static IdleTime factor(double n) {
        return new Factor(n);
    }

    /** A fixed idle time, whatever a grow costs. */
    record Fixed(Duration duration) implements IdleTime {
        public Fixed {
            Objects.requireNonNull(duration, "duration");
        }

        @Override
        public Duration after(Duration growOverhead) {
            return duration;
        }

        @Override
        public String describe() {
            return Texts.seconds(duration);
        }
    }

    /** {@code n · O_grow}, rounded to the nanosecond. */
    record Factor(double n) implements IdleTime {
        @Override
        public Duration after(Duration growOverhead) {
            return Duration.ofNanos(Math.round(n * growOverhead.toNanos()));
        }

        @Override
        public String describe() {
            return Texts.number(n) + " × O_grow";
        }
    }
}
