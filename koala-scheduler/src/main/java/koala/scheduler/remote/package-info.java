/**
 * Remote sites: a cluster reached over SSH (JSch) on its head node, with nothing installed there by
 * hand. {@link koala.scheduler.remote.RemoteSite} keeps one reachable: its
 * {@code HeadNodeSession} (commands, SFTP, port forwards), the {@code RemoteAgent} it checks
 * ({@code HeadNodeProbe}: an SGE cell, or a Slurm cluster, {@code SlurmHeadNode}), ships jars to
 * ({@code RuntimeJars}) and finds or starts there, a local
 * forward to the agent and a remote forward of the scheduler's port for the site's pilots. The link's
 * state is a value, {@link koala.scheduler.remote.Link} (UP, or DOWN with the reason and when to try
 * again, backing off); what went wrong is said in words an admin can act on, naming the site and the
 * key ({@link koala.scheduler.remote.SshErrors}, {@link koala.scheduler.remote.SshFailure}).
 */
package koala.scheduler.remote;
