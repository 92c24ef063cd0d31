package koala.scheduler;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.scheduler.config.HangupReload;

/**
 * The scheduler as a process of its own: {@code --config FILE}. Prints {@code READY <url>} once it
 * serves; stops cleanly on TERM; reads its configuration again on HUP. ({@code bin/koala scheduler}
 * does the same from the CLI.)
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
        reloadOnHangup(daemon);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemon.close();
            stopped.countDown();
        }));
        System.out.println("READY " + daemon.url());
        System.out.flush();
        stopped.await();
    }

    /**
     * HUP reads the configuration again ({@link SchedulerDaemon#reload}, which only hands the work to
     * the daemon's threads) instead of ending the process as the JVM would. A process that ignores HUP
     * from its start (run under {@code nohup}) cannot catch it and keeps ignoring it: that is logged as
     * a warning, and the daemon tells {@code koala config check} ({@link HangupReload}).
     */
    private static void reloadOnHangup(SchedulerDaemon daemon) {
        HangupReload hangup;
        try {
            hangup = HangupReload.after(sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> daemon.reload()));
        } catch (IllegalArgumentException e) {
            hangup = HangupReload.refused(e.getMessage());
        }
        if (!hangup.reloads()) {
            org.apache.logging.log4j.LogManager.getLogger(SchedulerMain.class).warn(hangup.warning());
        }
        daemon.hangup(hangup);
    }
}
