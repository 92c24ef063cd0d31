package koala.scheduler.storage;

import java.time.Instant;
import koala.fjm.FrameworkStore;

/**
 * Everything the scheduler keeps across a crash, behind narrow interfaces, one per entity, as Aurora's
 * stores: the scheduling code never sees a database. A write is durable when the call returns, or,
 * inside a unit of work ({@link #inTransaction}), when the unit returns, together with the unit's
 * other writes: the scheduler's loop makes each batch of calls, events and rounds one unit, so that a
 * transition's state, its history and what the caller is answered are kept together, and the answer
 * goes out after them.
 */
public interface Store extends JobStore, NodeStore, HistoryStore, AllocationStore, AccountingStore, AgentStore,
        AnswerStore, SchedulerStore, FrameworkStore, UnitOfWork, AutoCloseable {
    /**
     * Forgets jobs that ended before {@code before} (with their nodes, spans, history, worker tallies, usage
     * records the accounting file has, and the answers to requests older than it): the retention of {@code scheduler.retention}. Returns how many.
     */
    int forget(Instant before);

    /**
     * The jobs a restart (or a take-over) reads back: the live ones and those that ended after
     * {@code endedAfter}, each with its nodes, spans, history and an allocation's grows, in order of id; read
     * a table at a time, not a job at a time, so that it costs a few queries however many jobs there are.
     */
    java.util.List<StoredJob> reload(Instant endedAfter);

    @Override
    void close();
}
