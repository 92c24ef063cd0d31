/**
 * {@link koala.common.time.Poll}: waiting for something outside the process that sends no signal
 * (a daemon answering, a file appearing) by looking again at an interval, on an injected clock.
 * For set-up code, the CLI and tests; the scheduling paths are driven by their own loops.
 */
package koala.common.time;
