/**
 * What the scheduler keeps across a crash, behind narrow interfaces, one per entity as Aurora's stores
 * ({@link koala.scheduler.storage.JobStore} for jobs as {@link koala.scheduler.storage.JobRecord}s,
 * {@link koala.scheduler.storage.NodeStore} for their nodes and spans,
 * {@link koala.scheduler.storage.HistoryStore} for their transitions,
 * {@link koala.scheduler.storage.AllocationStore} for allocations' grows and roles,
 * {@link koala.scheduler.storage.AccountingStore} for usage records and worker tallies,
 * {@link koala.scheduler.storage.AgentStore} for the agents' addresses,
 * {@link koala.scheduler.storage.AnswerStore} for the answers to named requests,
 * {@link koala.scheduler.storage.SchedulerStore} for the pilot tag and named values, and the
 * FrameworkJobManager's {@code FrameworkStore}), which {@link koala.scheduler.storage.Store} puts
 * together with the retention, so that the scheduling code never sees a database.
 *
 * <p>{@link koala.scheduler.storage.H2Store} is the store as an embedded H2 file database: one
 * {@code H2*} class per entity with its tables' SQL (the schema is Flyway's versions,
 * {@code koala/scheduler/storage/h2/V*.sql}), on one {@code H2Database} that holds
 * the connection, the units of work, the prepared statements and H2's file (tidying, backups). A write
 * is durable when the call returns, or, inside a {@link koala.scheduler.storage.UnitOfWork}, when the
 * unit does, together with the unit's other writes; a refused one is a
 * {@link koala.scheduler.storage.StoreException}.
 */
package koala.scheduler.storage;
