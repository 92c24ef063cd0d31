package koala.cli;

import java.net.URI;
import java.nio.file.Path;
import koala.api.scheduler.SchedulerClient;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import picocli.CommandLine.Option;

/** Options every command that talks to the grid shares. */
final class GridOptions {
    @Option(names = "--config", paramLabel = "FILE", description = "grid configuration (default: $KOALA_CONFIG or KOALA_HOME/grid.properties)")
    Path config;

    @Option(names = "--scheduler", paramLabel = "URL", description = "the scheduler's API (default: its Unix socket, "
            + "unix:<scheduler.socket> from the grid configuration; an http:// address needs a token in $KOALA_TOKEN)")
    URI scheduler;

    @Option(names = "--as", paramLabel = "USER", description = "act for USER (admins only, as Slurm's --uid): what "
            + "this command submits is USER's and runs as USER (default: $KOALA_AS)")
    String actingFor;

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
        return SchedulerClient.shortLived(scheduler != null ? scheduler : grid().schedulerAddress())
                .actingFor(actingFor != null ? actingFor : System.getenv("KOALA_AS"));
    }
}
