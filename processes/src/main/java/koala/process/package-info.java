/**
 * Starting KOALA's JVMs as child processes. {@link koala.process.JavaCommand} is a JVM to
 * start, possibly as another account (the site's agent account) with its environment and
 * {@code LD_PRELOAD}; {@link koala.process.AgentProcess} a site agent started that way, with
 * its cell's environment, waiting for its {@code READY} line. {@link koala.process.RuntimeImage}
 * publishes a copy of the class path that unprivileged accounts can read (and prunes old copies);
 * {@link koala.process.ClassArchive} keeps a class-data-sharing archive for the node launcher,
 * whose start-up is most of a grow's overhead.
 */
package koala.process;
