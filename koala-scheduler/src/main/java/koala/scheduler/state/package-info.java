/**
 * A job's lifecycle as a declarative transition table: {@link koala.scheduler.state.JobStateMachine}
 * says, for each {@link koala.scheduler.state.JobState} and {@link koala.scheduler.state.JobEvent}, the
 * state it leads to and the {@link koala.scheduler.state.SideEffect}s, returned as values for the
 * scheduler to carry out. QUEUED → CLAIMING → RUNNING → FINISHED | FAILED, CLAIMING → QUEUED when
 * claims fail, CANCELLED from any live state; an event a state does not accept is refused.
 */
package koala.scheduler.state;
