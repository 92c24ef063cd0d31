package koala.scheduler.accounting;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import koala.api.scheduler.UsageRecord;
import koala.common.json.Json;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Appends usage records to the {@link AccountingFile} on a thread of its own, so that neither the
 * scheduler's loop nor a request waits on the disk. Records are taken in batches: each batch is
 * appended and forced to disk, then every record in it acknowledged ({@code written}, which the
 * scheduler turns into an event on its loop that marks the record written in its store).
 *
 * <p>Once, not twice: a record of a job that has just ended is appended as it is; a replayed one
 * (kept in the store from before a restart, which may have written it and died before the
 * acknowledgement) is appended only if the file has no record of its id. A write that fails is
 * logged, taken back from the file and tried again, replayed, after {@code retryAfter}; the
 * records wait in the store meanwhile, so a scheduler stopped in between writes them after its
 * next start. A failure never reaches the loop.
 */
public final class AccountingWriter implements UsageSink, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(AccountingWriter.class);

    private record Owed(UsageRecord record, boolean replayed) {
    }

    private final AccountingFile file;
    private final ScheduledExecutorService thread;
    private final LongConsumer written;
    private final Duration retryAfter;
    /** Only the writer's thread touches these. */
    private final List<Owed> owed = new ArrayList<>();
    private boolean retrying;

    /**
     * @param thread     a single thread, the writer's own
     * @param written    told each record's id once the file has it (on the writer's thread)
     * @param retryAfter how long after a failed write it is tried again
     */
    public AccountingWriter(AccountingFile file, ScheduledExecutorService thread, LongConsumer written,
                            Duration retryAfter) {
        this.file = file;
        this.thread = thread;
        this.written = written;
        this.retryAfter = retryAfter;
    }

    @Override
    public void append(UsageRecord record) {
        submit(List.of(new Owed(record, false)));
    }

    @Override
    public void replay(List<UsageRecord> records) {
        submit(records.stream().map(r -> new Owed(r, true)).toList());
    }

    private void submit(List<Owed> records) {
        try {
            thread.execute(() -> {
                owed.addAll(records);
                write();
            });
        } catch (RejectedExecutionException stopping) {
            LOG.info("the accounting writer has stopped; {} records wait in the store for the next start", records.size());
        }
    }

    /** Appends what is owed, skipping replayed records the file has; on a failure, keeps it for later. */
    private void write() {
        if (owed.isEmpty()) {
            return;
        }
        List<Owed> batch = List.copyOf(owed);
        try {
            Set<Long> replayed = batch.stream().filter(Owed::replayed).map(o -> o.record().id()).collect(Collectors.toSet());
            Set<Long> there = replayed.isEmpty() ? Set.of() : file.recorded(replayed);
            List<Owed> missing = batch.stream().filter(o -> !(o.replayed() && there.contains(o.record().id()))).toList();
            if (!missing.isEmpty()) {
                file.append(missing.stream().map(o -> Json.write(o.record())).toList());
            }
            owed.removeAll(batch);
            batch.forEach(o -> written.accept(o.record().id()));
            LOG.debug("accounting: {} records written to {}, {} were there already", missing.size(), file.path(),
                    batch.size() - missing.size());
        } catch (IOException | RuntimeException e) {
            LOG.error("accounting: cannot write {} to {} ({}); kept, and tried again in {}", batch.size() == 1
                    ? "a usage record" : batch.size() + " usage records", file.path(), e.toString(),
                    koala.common.time.Durations.text(retryAfter));
            // what a failed write left behind is not known for sure: the next try looks before it writes
            owed.replaceAll(o -> new Owed(o.record(), true));
            retryLater();
        }
    }

    private void retryLater() {
        if (retrying) {
            return;
        }
        retrying = true;
        try {
            thread.schedule(() -> {
                retrying = false;
                write();
            }, retryAfter.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            retrying = false;
        }
    }

    /** Lets a write in progress finish (a second at most); what is still owed waits in the store. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.shutdownNow();
    }
}
