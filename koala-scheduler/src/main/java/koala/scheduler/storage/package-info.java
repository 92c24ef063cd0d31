/**
 * What the scheduler keeps across a crash, behind one narrow interface,
 * {@link koala.scheduler.storage.Store} (jobs as {@link koala.scheduler.storage.JobRecord}s, their
 * nodes and transitions, the agents' addresses, the FrameworkJobManager's records), so that the
 * scheduling code never sees a database. {@link koala.scheduler.storage.H2Store} is the store as an
 * embedded H2 file database; a write is durable when the call returns, or, inside a
 * {@link koala.scheduler.storage.UnitOfWork}, when the unit does, together with the unit's other
 * writes; a refused one is a {@link koala.scheduler.storage.StoreException}.
 */
package koala.scheduler.storage;
