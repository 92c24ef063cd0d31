package koala.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import koala.grid.KoalaHome;
import koala.scheduler.config.StoreSettings;
import koala.scheduler.storage.H2Store;
import koala.scheduler.storage.SqlStore;
import koala.scheduler.storage.StoreCopy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The scheduler's store, while no scheduler runs on it. */
@Command(name = "store", mixinStandardHelpOptions = true,
        description = "The scheduler's store (scheduler.database), while the scheduler is stopped.",
        subcommands = StoreCommand.Copy.class)
final class StoreCommand {

    @Command(name = "copy", mixinStandardHelpOptions = true,
            description = {"Copies a head node's H2 database into the store the grid configuration names "
                    + "(scheduler.database = jdbc:postgresql://HOST:PORT/DATABASE, with scheduler.database.user and "
                    + "scheduler.database.passwordFile): every job, node, history, framework instance, agent, answer, "
                    + "usage total and the pilot tag, in one transaction; job ids go on from the last one given.",
                    "Stop the scheduler first (its H2 file is locked while it runs); the target must hold no jobs. "
                    + "Then start the scheduler on the new store: it takes up the running pilots as after a restart "
                    + "(docs/admin-guide.md#moving-from-h2-to-postgresql)."},
            footer = {"", "Exit status: 0 copied, 1 failure (a database unreachable, the H2 file in use), "
                    + "2 bad input (no such H2 file, a target that holds jobs, a configuration without PostgreSQL)."})
    static final class Copy implements Callable<Integer> {
        @Option(names = "--config", paramLabel = "FILE",
                description = "grid configuration whose scheduler.database is the target (default: $KOALA_CONFIG or "
                        + "KOALA_HOME/grid.properties)")
        Path config;

        @Option(names = "--from", paramLabel = "FILE",
                description = "the H2 database, without .mv.db (default: KOALA_HOME/scheduler/koala)")
        Path from;

        @Override
        public Integer call() {
            Path source = from != null ? from : KoalaHome.dir().resolve("scheduler").resolve("koala");
            if (!java.nio.file.Files.isRegularFile(Path.of(source + ".mv.db"))) {
                System.err.println("koala: no H2 database " + source + ".mv.db (--from names it without .mv.db)");
                return Koala.BAD_INPUT;
            }
            Path file = config != null ? config : KoalaHome.gridConfig();
            StoreSettings target = StoreSettings.from(koala.grid.GridConfig.load(file), KoalaHome.dir());
            if (!(target instanceof StoreSettings.Postgres pg)) {
                System.err.println("koala: " + file + " names an H2 file as scheduler.database: set it to "
                        + "the PostgreSQL database to copy into (jdbc:postgresql://HOST:PORT/DATABASE)");
                return Koala.BAD_INPUT;
            }
            try (SqlStore h2 = H2Store.open(source); SqlStore to = target.open()) {
                System.out.println("copying " + source + ".mv.db into " + pg.url() + " as " + pg.user());
                Map<String, Integer> rows = StoreCopy.copy(h2, to, table -> System.out.println("  " + table));
                System.out.printf("copied %d rows of %d tables; the pilot tag is %s%n",
                        rows.values().stream().mapToInt(Integer::intValue).sum(), rows.size(), to.pilotTag());
                return 0;
            } catch (koala.common.failure.Conflict e) {
                System.err.println("koala: " + e.getMessage());
                return Koala.BAD_INPUT;
            }
        }
    }
}
