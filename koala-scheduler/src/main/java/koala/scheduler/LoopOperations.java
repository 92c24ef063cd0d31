package koala.scheduler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.NodeTask;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.SubmitRequest;
import koala.auth.TokenKey;
import koala.scheduler.accounting.AccountingFile;
import koala.scheduler.accounting.AccountingQuery;
import koala.scheduler.api.Caller;
import koala.scheduler.api.SchedulerApi;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The API's operations on a scheduler's parts, each run on its {@code loop} after the caller's right to it
 * is checked there, but the reading of the accounting file and the database's backups, which wait only
 * for the loop's unit of work in hand.
 */
final class LoopOperations implements SchedulerApi.Operations {
    private static final Logger LOG = LogManager.getLogger(LoopOperations.class);

    private final SchedulerParts parts;
    private final Scheduler jobs;
    private final SchedulerLoop loop;
    private final TokenKey key;
    private final AccountingFile accounting;
    private final koala.scheduler.storage.Backups backups;
    /** The generation of the framework runner calling through these operations; 0: not a runner's call. */
    private final long runnerGeneration;

    /**
     * @param key        the key tokens are signed with (rotated through the API)
     * @param accounting the accounting file; null: none kept
     * @param backups    the database's backups; null: none taken
     */
    LoopOperations(SchedulerParts parts, SchedulerLoop loop, TokenKey key, AccountingFile accounting,
                   koala.scheduler.storage.Backups backups) {
        this(parts, loop, key, accounting, backups, 0);
    }

    private LoopOperations(SchedulerParts parts, SchedulerLoop loop, TokenKey key, AccountingFile accounting,
                           koala.scheduler.storage.Backups backups, long runnerGeneration) {
        this.runnerGeneration = runnerGeneration;
        this.parts = parts;
        this.jobs = parts.scheduler();
        this.loop = loop;
        this.key = key;
        this.accounting = accounting;
        this.backups = backups;
    }

    /** Without an accounting file or backups. */
    LoopOperations(SchedulerParts parts, SchedulerLoop loop, TokenKey key) {
        this(parts, loop, key, null, null);
    }

        @Override
        public SchedulerApi.Operations asRunner(long generation) {
            return new LoopOperations(parts, loop, key, accounting, backups, generation);
        }

        /**
         * On the loop: {@code c} may {@code action} instance {@code id}, and when a runner calls, it is the
         * one in force ({@link koala.fjm.FrameworkRegistry#fence}), checked in the very unit that acts, so
         * that no replacement comes between the check and the act.
         */
        private void check(Caller c, long id, String action) {
            parts.owners().check(c, id, action);
            fence(id);
        }

        private void fence(long id) {
            if (runnerGeneration > 0) {
                parts.frameworks().fence(id, runnerGeneration);
            }
        }

        @Override
        public Object submit(Caller c, SubmitRequest r) {
            Owners.mayOwn(c);
            return loop.call(() -> jobs.submit(r.file(), r.jdf(), c.user(), r.requestId()));
        }

        /** The grid is read on the loop; the estimate, the whole queue replayed, is made on the caller's thread. */
        @Override
        public Object estimate(Caller c, SubmitRequest r) {
            Owners.mayOwn(c);
            koala.estimate.GridSnapshot snapshot = loop.look(() -> jobs.dryRunSnapshot(r.file(), r.jdf(), c.user()));
            return StartTimes.view(jobs.startTimes().one(snapshot, Long.toString(Scheduler.DRY_RUN)), snapshot.now());
        }

        @Override
        public Object job(long id, boolean heldOnly) {
            return loop.look(() -> {
                fence(id);
                return heldOnly ? jobs.heldNow(id) : jobs.status(id);
            });
        }

        @Override
        public Object jobs() {
            return loop.call(jobs::list);
        }

        @Override
        public Object cancel(Caller c, long id) {
            return loop.call(() -> {
                parts.owners().check(c, id, "cancel");
                return jobs.cancel(id);
            });
        }

        @Override
        public Object sites() {
            return loop.call(jobs::sites);
        }

        @Override
        public Object accounting(Caller c, String user, java.time.Instant since, Long instance, int limit) {
            String owner = Accounting.readable(c, user);
            if (accounting == null) {
                throw new koala.common.failure.Unavailable("this scheduler keeps no accounting file");
            }
            try {
                return accounting.read(new AccountingQuery(owner, since, instance, limit));
            } catch (IOException e) {
                throw new koala.common.failure.Unavailable("cannot read the accounting file " + accounting.path()
                        + ": " + e.getMessage(), e);
            }
        }

        @Override
        public Object report(Caller c, long id, koala.api.scheduler.ShareReport r) {
            return loop.call(() -> {
                check(c, id, "report on");
                return jobs.shareReport(id, r);
            });
        }

        @Override
        public Object allocate(Caller c, AllocationRequest r) {
            Owners.mayOwn(c);
            return loop.call(() -> parts.allocations().open(r.owner(), c.user(), r.requestId(), r.roles()));
        }

        @Override
        public Object grow(Caller c, long id, GrowRequest r) {
            GrowResult result = loop.call(() -> {
                check(c, id, "grow");
                return parts.allocations().grow(id, r);
            });
            return result.granted() == 0 && GrowRefusal.GridFull.said(result.reason()) ? whenIdle(result, r) : result;
        }

        /** A grow the grid is too full for, with when a node will likely be idle for it (estimated off the loop). */
        private GrowResult whenIdle(GrowResult refused, GrowRequest r) {
            return jobs.startTimes().likelyIdle(NodeNeeds.taken(NodeNeeds.of(r)), r.site())
                    .map(at -> new GrowResult(refused.allocation(), refused.requested(), 0, List.of(), refused.reason()
                            + "; a node likely idle " + (r.site() == null ? "" : "there ") + "from ~"
                            + java.time.format.DateTimeFormatter.ofPattern("HH:mm").withZone(java.time.ZoneId.systemDefault())
                            .format(at) + " (the scheduler's start estimate)"))
                    .orElse(refused);
        }

        @Override
        public Object release(Caller c, long id, ReleaseRequest r) {
            return loop.call(() -> {
                check(c, id, "release nodes of");
                return parts.allocations().release(id, r.nodes(), r.reason());
            });
        }

        @Override
        public Object close(Caller c, long id) {
            return loop.call(() -> {
                check(c, id, "close");
                return parts.allocations().close(id);
            });
        }

        @Override
        public Object fail(Caller c, long id, String reason) {
            return loop.call(() -> {
                check(c, id, "fail");
                return parts.allocations().fail(id, reason);
            });
        }

        @Override
        public Object register(Caller c, FrameworkRegistration r) {
            return loop.call(() -> {
                parts.owners().check(c, r.allocation(), "register an instance on");
                return parts.frameworks().register(r);
            });
        }

        @Override
        public Object master(Caller c, long id, MasterAddress m) {
            return loop.call(() -> {
                check(c, id, "re-point the master of");
                return parts.frameworks().master(id, m);
            });
        }

        @Override
        public Object mpiStart(String node, koala.api.scheduler.MpiStart r) {
            return java.util.Map.of("node", loop.call(() -> parts.nodes().mpiStart(node, r.token(), r.host(),
                    r.command())));
        }

        @Override
        public void rotateTokenKey() {
            try {
                key.rotate();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot rotate the token key: " + e.getMessage(), e);
            }
        }

        @Override
        public Object backup(String file) {
            if (backups == null) {
                throw new koala.common.failure.Unavailable("this scheduler's database is not kept in a file");
            }
            koala.scheduler.storage.Backups.Backup b = backups.take(file);
            LOG.info("database backed up into {} ({} bytes)", b.file(), b.bytes());
            return b;
        }

        @Override
        public Object framework(long id) {
            return loop.call(() -> parts.frameworks().get(id));
        }

        @Override
        public Object frameworks() {
            return loop.call(() -> parts.frameworks().all());
        }

        @Override
        public NodeTask arrive(String node, NodeReport r) {
            return loop.call(() -> parts.nodes().arrive(node, r.token(), r.host()));
        }

        @Override
        public NodeTask task(String node, String token) {
            return loop.look(() -> parts.nodes().task(node, token));
        }

        @Override
        public NodeTask exited(String node, NodeReport r) {
            return loop.call(() -> parts.nodes().exited(node, r.token(), r.exitStatus(), r.detail(),
                    r.cpuSeconds()));
        }

        @Override
        public void awaitChange(long millis) throws InterruptedException {
            loop.awaitChange(millis);
        }
}
