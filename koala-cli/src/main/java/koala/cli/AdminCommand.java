package koala.cli;

import java.util.concurrent.Callable;
import koala.api.scheduler.BackupView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What only an admin (root, or a member of {@code admin.group}) asks of the running scheduler. */
@Command(name = "admin", mixinStandardHelpOptions = true,
        description = "Administration of the running scheduler (admins only: root, or a member of admin.group).",
        subcommands = AdminCommand.Backup.class)
final class AdminCommand {

    @Command(name = "backup", mixinStandardHelpOptions = true,
            description = {"Backs the scheduler's database up now, while it runs (H2's BACKUP, on the scheduler's "
                    + "own connection: consistent, between two of its units of work). The scheduler writes the zip "
                    + "into its backups directory beside the database (KOALA_HOME/scheduler/backups), readable by "
                    + "its account only, and prints where; copy it off the host from there.",
                    "Restore: stop the scheduler, unpack the zip into the database's directory "
                    + "(KOALA_HOME/scheduler), start it (docs/admin-guide.md#backing-up-and-restoring-the-database)."},
            footer = {"", "Exit status: 0 success, 1 failure (not an admin, the scheduler unreachable), "
                    + "2 bad input (a name that is not a plain .zip file name, or one already there)."})
    static final class Backup implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Parameters(arity = "0..1", paramLabel = "NAME",
                description = "the zip's file name, e.g. before-upgrade.zip (default: koala-YYYYMMDD-HHMMSSZ.zip, UTC)")
        String name;

        @Option(names = "--json", description = "print the backup as JSON: file, bytes, at")
        boolean json;

        @Override
        public Integer call() {
            BackupView backup;
            try {
                backup = grid.client().backup(name);
            } catch (koala.http.ApiException e) {
                return JobCommands.refused(e);
            }
            if (json) {
                System.out.println(koala.common.json.Json.write(backup));
            } else {
                System.out.printf("backed up into %s (%d bytes) at %s%n", backup.file(), backup.bytes(), backup.at());
            }
            return 0;
        }
    }
}
