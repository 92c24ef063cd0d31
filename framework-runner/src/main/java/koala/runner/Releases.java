package koala.runner;

import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Nodes the runner gives back to the scheduler. The runner's book forgets a node the moment it
 * decides to give it back; the scheduler is told off the loop. Until the scheduler has taken it, a
 * look at the allocation that still shows it is no grant of the grid's arbitration; one the scheduler
 * refused (it did not answer, say) is given back again at the next look that shows it still held. A
 * node is forgotten here once a look asked after its release no longer shows it. Lives on the loop.
 */
final class Releases {
    enum Stage { ASKED, TAKEN, REFUSED }

    private final SchedulerCalls calls;
    private final Entities entities;
    private final Events events;
    private final InstantSource clock;
    private final Map<String, Stage> nodes = new LinkedHashMap<>();

    Releases(SchedulerCalls calls, Entities entities, Events events, InstantSource clock) {
        this.calls = calls;
        this.entities = entities;
        this.events = events;
        this.clock = clock;
    }

    /** Tells the scheduler to take {@code given} back, for {@code reason}; the book has forgotten them already. */
    void giveBack(List<String> given, String reason) {
        given.forEach(n -> {
            nodes.put(n, Stage.ASKED);
            entities.touched(n);
        });
        calls.ask(s -> {
            s.release(given, reason);
            return Boolean.TRUE;
        }, outcome -> {
            Stage stage = outcome.answered() ? Stage.TAKEN : Stage.REFUSED;
            given.stream().filter(n -> nodes.get(n) == Stage.ASKED).forEach(n -> {
                nodes.put(n, stage);
                entities.touched(n);
            });
            if (!outcome.answered()) {
                events.add(clock.instant(), "could not give " + (given.size() == 1 ? given.get(0) : given.toString())
                        + " back: " + outcome.failure().getMessage());
            }
        });
    }

    Optional<Stage> stage(String node) {
        return Optional.ofNullable(nodes.get(node));
    }

    void forget(String node) {
        nodes.remove(node);
    }

    List<String> all() {
        return List.copyOf(nodes.keySet());
    }
}
