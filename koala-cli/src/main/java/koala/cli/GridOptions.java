package koala.cli;

import java.net.URI;
import java.nio.file.Path;
import koala.common.api.SchedulerClient;
import koala.common.grid.GridConfig;
import koala.common.grid.KoalaHome;
import picocli.CommandLine.Option;

/** Options every command that talks to the grid shares. */
final class GridOptions {
    @Option(names = "--config", paramLabel = "FILE", description = "grid configuration (default: $KOALA_CONFIG or KOALA_HOME/grid.properties)")
    Path config;

    @Option(names = "--scheduler", paramLabel = "URL", description = "the scheduler's API (default: its Unix socket, "
            + "unix:<scheduler.socket> from the grid configuration; an http:// address needs a token in $KOALA_TOKEN)")
    URI scheduler;

    private GridConfig loaded;

    Path configFile() {
        return config != null ? config : KoalaHome.gridConfig();
    }

    /** The grid configuration, read once per command. */
    GridConfig grid() {
        if (loaded == null) {
            loaded = GridConfig.load(configFile());
        }
        return loaded;
    }

    /** The scheduler as a command reaches it: a connection per call, no threads (the command is short-lived). */
    SchedulerClient client() {
        return SchedulerClient.shortLived(scheduler != null ? scheduler : grid().schedulerAddress());
    }
}
