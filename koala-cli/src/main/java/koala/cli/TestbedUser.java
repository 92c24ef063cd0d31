package koala.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import koala.api.scheduler.SchedulerClient;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;

/**
 * Whom the testbed's tools (the demo, the benchmarks, the testbed experiment) act for. KOALA runs
 * no job as root, so run by root they act for the sites' own account ({@code site.NAME.agentUser},
 * {@code koala} on the testbed), an ordinary user whose jobs run as it; {@code $KOALA_AS} names
 * another; run by anyone else, they are that user's.
 */
public final class TestbedUser {
    private TestbedUser() {
    }

    /** The scheduler of {@code grid}, called as these tools call it. */
    public static SchedulerClient client(GridConfig grid) {
        return new SchedulerClient(grid.schedulerAddress()).actingFor(actingFor(grid));
    }

    /** The user root acts for, or null when the caller acts as itself. */
    public static String actingFor(GridConfig grid) {
        String asked = System.getenv("KOALA_AS");
        if (asked != null && !asked.isBlank()) {
            return asked.strip();
        }
        return root() ? grid.sites().stream().filter(s -> !s.remote()).map(SiteConfig::agentUser).findFirst()
                .orElse(null) : null;
    }

    static boolean root() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
