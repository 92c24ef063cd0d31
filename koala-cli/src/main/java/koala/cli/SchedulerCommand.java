package koala.cli;

import java.util.concurrent.Callable;
import koala.grid.KoalaHome;
import koala.scheduler.SchedulerDaemon;
import koala.scheduler.SchedulerMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "scheduler", mixinStandardHelpOptions = true,
        description = {"Run the KOALA scheduler in the foreground: it starts (or re-attaches to) one site agent per "
                + "site, polls them (the information service), places queued jobs, claims nodes with pilot jobs and "
                + "runs co-allocated jobs. Its state is in KOALA_HOME/scheduler (H2), or in the PostgreSQL "
                + "database scheduler.database names; killed and started again, it carries on where it was."})
final class SchedulerCommand implements Callable<Integer> {
    @Mixin
    GridOptions grid;

    @Override
    public Integer call() throws Exception {
        SchedulerMain.runUntilStopped(SchedulerDaemon.start(grid.grid(), KoalaHome.dir()));
        return 0;
    }
}
