package koala.testbed;

import java.util.List;
import java.util.Optional;

/**
 * A host of the testbed as {@code testbed status} shows it: its address, whether its namespaces
 * are there, and its daemons with their resident memory.
 */
public record HostStatus(String name, String role, String address, boolean present, List<Daemon> daemons) {
    /** @param pid null when the daemon does not run; {@code rss} in bytes, 0 then */
    public record Daemon(String name, Long pid, long rss) {
    }

    static Daemon daemon(String name, Optional<Long> pid) {
        return new Daemon(name, pid.orElse(null), pid.flatMap(Hosts::rss).orElse(0L));
    }

    public boolean up() {
        return present && daemons.stream().allMatch(d -> d.pid() != null);
    }

    public long rss() {
        return daemons.stream().mapToLong(Daemon::rss).sum();
    }
}
