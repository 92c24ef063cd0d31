package koala.scheduler;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import koala.common.grid.ConfigException;
import koala.common.grid.GridConfig;
import koala.common.grid.KoalaHome;

/**
 * The scheduler as a process of its own: {@code --config FILE}. Prints {@code READY <url>} once it
 * serves; stops cleanly on TERM. ({@code bin/koala scheduler} does the same from the CLI.)
 */
public final class SchedulerMain {
    private SchedulerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path config = args.length == 2 && args[0].equals("--config") ? Path.of(args[1]) : KoalaHome.gridConfig();
        SchedulerDaemon daemon;
        try {
            daemon = SchedulerDaemon.start(GridConfig.load(config), KoalaHome.dir());
        } catch (ConfigException e) {
            System.err.println("koala scheduler: " + e.getMessage());
            System.exit(2);
            return;
        }
        runUntilStopped(daemon);
    }

    public static void runUntilStopped(SchedulerDaemon daemon) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemon.close();
            stopped.countDown();
        }));
        System.out.println("READY " + daemon.url());
        System.out.flush();
        stopped.await();
    }
}
